// nn.Flatten: (N, ...) -> (N, prod(...)), keeping the batch axis. SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"

namespace gradstep {

class Flatten : public Cell {
public:
    Flatten() : Cell("Flatten") {}
    Value construct(const std::vector<Value>& args) override;
};

} // namespace gradstep
