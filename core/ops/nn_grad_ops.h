// The fused gradient ops of nn layers, each one kernel and one node (MindSpore's names:
// SoftmaxGrad, LogSoftmaxGrad, ...). The layers' backward rules call them; they are public for
// tests and for code that builds gradients by hand. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <cstdint>

namespace gradstep {

/// Softmax's gradient from its output y: dx = y * (dy - sum_axis(dy * y)).
Tensor softmaxGrad(const Tensor& y, const Tensor& dy, std::int64_t axis = -1);
/// LogSoftmax's gradient from its output y: dx = dy - exp(y) * sum_axis(dy).
Tensor logSoftmaxGrad(const Tensor& y, const Tensor& dy, std::int64_t axis = -1);
/// SparseSoftmaxCrossEntropyWithLogits' gradient: (softmax(logits) - onehot(labels)) * g[:, None].
Tensor sparseSoftmaxCrossEntropyGrad(const Tensor& logits, const Tensor& labels, const Tensor& g);
/// SiLU's gradient: dy * s * (1 + x * (1 - s)), s = sigmoid(x).
Tensor siluGrad(const Tensor& x, const Tensor& dy);

} // namespace gradstep
