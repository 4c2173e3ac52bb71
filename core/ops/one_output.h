// The outputs of an op with one output, as batching and forward-mode rules return them.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

#include <utility>

namespace gradstep {

inline OutputList oneOutput(Tensor t)
{
    OutputList out;
    out.push_back(std::move(t));
    return out;
}

} // namespace gradstep
