// nn.Tanh: tanh(x). SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"

namespace gradstep {

class Tanh : public Cell {
public:
    Tanh() : Cell("Tanh") {}
    Value construct(const std::vector<Value>& args) override;
};

} // namespace gradstep
