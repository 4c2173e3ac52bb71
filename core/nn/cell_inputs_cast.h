// The input side of a Cell's mixed precision: MindSpore casts a Cell's float inputs to its own
// mixed-precision type (Cell::mixedPrecision, not an inherited one) before its hooks and its
// construct see them (its Cell.__call__ -> _cast_mixed_precision_inputs). SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"

#include <vector>

namespace gradstep {

/// args with the float tensors in them cast to cell.mixedPrecision(); args themselves when unset.
std::vector<Value> castCellInputs(const Cell& cell, const std::vector<Value>& args);

} // namespace gradstep
