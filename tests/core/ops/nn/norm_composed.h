// LayerNorm, GroupNorm and BatchNorm written with differentiable ops: the definitions the fused
// kernels compute, the tests' float64 reference. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <cstdint>

namespace gradstep {

/// {y, mean, variance} of LayerNorm from {x, gamma, beta}.
TensorList layerNormComposed(const TensorList& xgb, std::int64_t beginNormAxis, double epsilon);
/// {y, mean, variance} of GroupNorm from {x, gamma, beta}; mean and variance (N, groups).
TensorList groupNormComposed(const TensorList& xgb, std::int64_t groups, double epsilon);

/// {y, batch_mean, batch_variance} of BatchNorm from {x, scale, bias, mean, variance}; outside
/// training the given mean and variance normalise and are returned.
TensorList batchNormComposed(const TensorList& inputs, bool training, double epsilon);

} // namespace gradstep
