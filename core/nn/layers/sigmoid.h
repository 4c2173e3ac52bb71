// nn.Sigmoid: 1 / (1 + exp(-x)). SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"

namespace gradstep {

class Sigmoid : public Cell {
public:
    Sigmoid() : Cell("Sigmoid") {}
    Value construct(const std::vector<Value>& args) override;
};

} // namespace gradstep
