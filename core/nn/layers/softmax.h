// nn.Softmax(axis=-1): exp(x) / sum(exp(x)) along axis. SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"

#include <cstdint>

namespace gradstep {

class Softmax : public Cell {
public:
    explicit Softmax(std::int64_t axis = -1) : Cell("Softmax"), m_axis(axis) {}
    Value construct(const std::vector<Value>& args) override;
    std::int64_t axis() const { return m_axis; }

private:
    std::int64_t m_axis;
};

} // namespace gradstep
