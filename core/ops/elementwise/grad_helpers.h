// Helpers shared by backward rules of broadcasting ops. SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

namespace gradstep {

/// The gradient for input i of a broadcasting op: `grad` summed back to the input's shape and
/// cast to its dtype; undefined when the input needs none or is not a float tensor.
Tensor gradForInput(const BackwardContext& ctx, std::size_t i, const Tensor& grad);

} // namespace gradstep
