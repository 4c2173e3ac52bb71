// nn.ReLU: max(x, 0) elementwise (the ReLU op documents its kink at 0).
// SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"

namespace gradstep {

class ReLU : public Cell {
public:
    ReLU() : Cell("ReLU") {}
    Value construct(const std::vector<Value>& args) override;
};

} // namespace gradstep
