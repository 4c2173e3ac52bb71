// Ops that exist for autodiff: stop_gradient and the identity that marks a grad input.
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

namespace gradstep {

/// Forward: identity. Backward: no gradient flows (treated as a constant).
Tensor stopGradient(const Tensor& x);
/// Forward and backward: identity (a recorded node, so a gradient slot exists for it).
Tensor identity(const Tensor& x);

} // namespace gradstep
