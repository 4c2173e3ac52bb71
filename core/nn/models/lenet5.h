// LeNet5 as MindSpore's documentation defines it (docs/mindspore/code/lenet.py, SEMANTICS §7.7):
// input (N, num_channel, 32, 32) -> logits (N, num_class). SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"

#include <cstdint>

namespace gradstep {

class LeNet5 : public Cell {
public:
    /// includeTop=false stops after the second pooling and returns the (N, 16, 5, 5) features.
    explicit LeNet5(std::int64_t numClass = 10, std::int64_t numChannel = 1,
                    bool includeTop = true);
    Value construct(const std::vector<Value>& args) override;

private:
    bool m_includeTop;
    CellPtr m_conv1, m_conv2, m_relu, m_maxPool2d, m_flatten, m_fc1, m_fc2, m_fc3;
};

} // namespace gradstep
