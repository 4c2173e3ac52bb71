// GeLU's backward as one op, and its second derivative for the rules above it. Apart from
// elementwise.h so that adding it rebuilds only its users. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

namespace gradstep {

/// MindSpore's GeLUGrad: dy * gelu'(x) in one pass (approximate: the tanh form).
Tensor geluGrad(const Tensor& dy, const Tensor& x, bool approximate);
/// gelu''(x), written with ops (GeLUGrad's backward and forward-mode rules share it).
Tensor geluSecondDerivative(const Tensor& x, bool approximate);

} // namespace gradstep
