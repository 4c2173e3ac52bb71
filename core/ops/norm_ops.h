// The normalisation ops, each one fused kernel and one node: LayerNorm, GroupNorm (which the
// InstanceNorm layers use with one channel per group) and BatchNorm, and their gradients.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"
#include "tensor/tensor.h"

#include <cstdint>

namespace gradstep {

/// MindSpore's LayerNorm: (y, mean, variance) of x normalised over the axes from begin_norm_axis,
/// y scaled by gamma and shifted by beta (both shaped like x from begin_params_axis). mean and
/// variance keep x's leading axes and have 1 for the normalised ones.
OutputList layerNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, std::int64_t beginNormAxis,
                     std::int64_t beginParamsAxis, double epsilon);
/// MindSpore's LayerNormGrad: (dx, dgamma, dbeta) from the saved variance and mean. dmean and
/// dvariance, the cotangents of LayerNorm's other outputs, may be undefined (none).
OutputList layerNormGrad(const Tensor& x, const Tensor& dy, const Tensor& variance, const Tensor& mean,
                         const Tensor& gamma, std::int64_t beginNormAxis, std::int64_t beginParamsAxis, double epsilon,
                         const Tensor& dmean = Tensor(), const Tensor& dvariance = Tensor());

/// GroupNorm of x (N, C, ...): (y, mean, variance), statistics per sample and group of C / groups
/// channels (shape (N, groups)), y scaled and shifted per channel by gamma and beta (C,).
OutputList groupNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, std::int64_t groups, double epsilon);
/// GroupNormGrad: (dx, dgamma, dbeta); dmean / dvariance as layerNormGrad's.
OutputList groupNormGrad(const Tensor& x, const Tensor& dy, const Tensor& variance, const Tensor& mean,
                         const Tensor& gamma, std::int64_t groups, double epsilon, const Tensor& dmean = Tensor(),
                         const Tensor& dvariance = Tensor());

/// MindSpore's BatchNorm on x (N, C, ...): (y, batch_mean, batch_variance); in training the
/// batch's statistics (variance biased) normalise, otherwise mean and variance (C,) do and are
/// returned. Moving statistics are the caller's to update.
OutputList batchNorm(const Tensor& x, const Tensor& scale, const Tensor& bias, const Tensor& mean,
                     const Tensor& variance, bool training, double epsilon);
/// BatchNormGrad: (dx, dscale, dbias) from the saved mean and variance; dmean / dvariance as
/// layerNormGrad's (training only).
OutputList batchNormGrad(const Tensor& dy, const Tensor& x, const Tensor& scale, const Tensor& mean,
                         const Tensor& variance, bool training, double epsilon, const Tensor& dmean = Tensor(),
                         const Tensor& dvariance = Tensor());

} // namespace gradstep
