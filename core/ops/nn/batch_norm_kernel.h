// The batch-normalisation kernel of BatchNorm and BatchNormGrad: statistics per channel over the
// batch and spatial axes of x (N, C, ...), each pass over the channel's N contiguous runs of S
// elements, where the composed layer ran about ten full-size ops forward and twenty backward.
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/shape.h"

#include <cstdint>

namespace gradstep {

/// x (N, C, ...) as N * C runs of `spatial` elements.
struct BatchLayout {
    std::int64_t batch = 0, channels = 0, spatial = 1;
};
BatchLayout batchLayout(const Shape& x);

/// y = (x - mean_c) * rsqrt(var_c + eps) * scale_c + bias_c. Training: mean and var are the
/// batch's (var biased), written to `mean` / `var`; otherwise they are read from them.
template <class T>
void batchNormForward(const T* x, const T* scale, const T* bias, T* mean, T* var, T* y, const BatchLayout& layout,
                      double eps, bool training);

/// dx, dscale and dbias for cotangent dy. Training: through the batch statistics (plus dmean /
/// dvar, the cotangents of the saved statistics, when given); otherwise mean and var are constants.
template <class T>
void batchNormBackward(const T* dy, const T* x, const T* scale, const T* mean, const T* var, const T* dmean,
                       const T* dvar, T* dx, T* dscale, T* dbias, const BatchLayout& layout, double eps, bool training);

} // namespace gradstep
