// Neural-network ops. One file per op under nn/. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gradstep {

/// 2-D (M,K)x(K,N) or batched (..., M, K)x(..., K, N) with broadcast batch dims; a 1-D operand is a
/// vector whose axis is dropped from the result, as in NumPy.
Tensor matmul(const Tensor& a, const Tensor& b, bool transposeA = false, bool transposeB = false);
/// Adds bias (C,) along axis 1 (NCHW / (N, C)).
Tensor biasAdd(const Tensor& x, const Tensor& bias);

struct Conv2dOptions {
    std::vector<std::int64_t> stride{1, 1};
    std::string padMode = "valid"; ///< "same", "valid" or "pad"
    std::vector<std::int64_t> padding{0, 0, 0, 0}; ///< top, bottom, left, right (pad mode only)
    std::vector<std::int64_t> dilation{1, 1};
    std::int64_t group = 1;
};
/// NCHW input, weight (C_out, C_in/group, kH, kW), cross-correlation; im2col + GEMM.
Tensor conv2d(const Tensor& x, const Tensor& weight, const Conv2dOptions& options = {});
/// The gradient of conv2d with respect to its input of shape inputShape (a differentiable op).
Tensor conv2dBackpropInput(const Tensor& dy, const Tensor& weight, const std::vector<std::int64_t>& inputShape,
                           const Conv2dOptions& options = {});
/// The gradient of conv2d with respect to its weight of shape filterShape (a differentiable op).
Tensor conv2dBackpropFilter(const Tensor& dy, const Tensor& x, const std::vector<std::int64_t>& filterShape,
                            const Conv2dOptions& options = {});

struct Pool2dOptions {
    std::vector<std::int64_t> kernel{1, 1};
    std::vector<std::int64_t> stride{1, 1};
    std::string padMode = "valid"; ///< "same" or "valid"
};
/// Ties: the gradient goes to the first maximum in the window (row-major), as cuDNN and PyTorch do.
Tensor maxPool2d(const Tensor& x, const Pool2dOptions& options);
/// 'same' averages over the real elements of each window only (padding is not counted).
Tensor avgPool2d(const Tensor& x, const Pool2dOptions& options);
/// The gradient of maxPool2d: dy routed to the argmax of each window of x.
Tensor maxPoolGrad(const Tensor& x, const Tensor& dy, const Pool2dOptions& options);
/// The adjoint of maxPoolGrad: g (shaped like x) read at the argmax of each window of x.
Tensor maxPoolGradGrad(const Tensor& x, const Tensor& g, const Pool2dOptions& options);
/// reluGrad(maxPoolGrad(y, dy), y) in one pass: graph mode's fusion of a pooled ReLU's backward.
Tensor maxPoolReluGrad(const Tensor& y, const Tensor& dy, const Pool2dOptions& options);
/// The gradient of avgPool2d for an input of shape inputShape.
Tensor avgPoolGrad(const Tensor& dy, const std::vector<std::int64_t>& inputShape, const Pool2dOptions& options);

Tensor softmax(const Tensor& x, std::int64_t axis = -1);
Tensor logSoftmax(const Tensor& x, std::int64_t axis = -1);
/// keepProb in (0, 1]; the mask comes from a generator seeded with `seed` (same seed, same mask);
/// scales by 1/keepProb.
Tensor dropout(const Tensor& x, double keepProb, std::uint64_t seed);
/// Both outputs of the Dropout op: {output, mask}.
TensorList dropoutWithMask(const Tensor& x, double keepProb, std::uint64_t seed);

/// Per-sample loss (N,) of logits (N, C) against class indices (N,) Int32/Int64.
Tensor sparseSoftmaxCrossEntropy(const Tensor& logits, const Tensor& labels);
/// Per-sample loss (N,) of logits (N, C) against probabilities (N, C).
Tensor softmaxCrossEntropy(const Tensor& logits, const Tensor& labels);
/// reduction: "mean", "sum" or "none".
Tensor mseLoss(const Tensor& prediction, const Tensor& target, const std::string& reduction = "mean");
Tensor l1Loss(const Tensor& prediction, const Tensor& target, const std::string& reduction = "mean");
Tensor bceWithLogits(const Tensor& logits, const Tensor& target, const std::string& reduction = "mean");
/// The same with a per-element `weight` and a positive-class `posWeight` (each undefined for none),
/// both broadcast to the logits: -weight (posWeight t log sigmoid(x) + (1 - t) log(1 - sigmoid(x))).
Tensor bceWithLogits(const Tensor& logits, const Tensor& target, const Tensor& weight, const Tensor& posWeight,
                     const std::string& reduction);

/// var <- var - alpha * delta in place (alpha has one element); returns var. Not differentiable.
Tensor applyGradientDescent(const Tensor& var, const Tensor& alpha, const Tensor& delta);

} // namespace gradstep
