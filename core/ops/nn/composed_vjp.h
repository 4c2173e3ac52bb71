// The gradient of a fused op computed from its composed definition (the same function written
// with differentiable ops), through the autodiff engine. A fused kernel covers the first
// derivative; higher orders, which are rare, go this way so no second-derivative formula is
// written by hand for each layer. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <functional>

namespace gradstep {

using ComposedFn = std::function<TensorList(const TensorList&)>;

/// sum_k <composed(inputs)[k], seeds[k]> differentiated with respect to every input. The ops it
/// runs are recorded on the tapes active around it, so the result is differentiable again.
TensorList composedVjp(const ComposedFn& composed, const TensorList& inputs, const TensorList& seeds);

} // namespace gradstep
