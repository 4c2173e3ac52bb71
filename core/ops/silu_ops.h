// SiLU (x * sigmoid(x)) as one op; its gradient is in nn_grad_ops.h. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

namespace gradstep {

/// MindSpore's SiLU: x * sigmoid(x), one node.
Tensor silu(const Tensor& x);

} // namespace gradstep
