// The numerically stable softmax kernels shared by Softmax, LogSoftmax, their gradients and the
// cross-entropy losses: the maximum of each slice is subtracted before exp, so no exp overflows.
// They run on Eigen's vectorised exp (glibc's scalar expf per element cost 6-11x PyTorch's
// time), one pass for the maximum, one for exp and the sum, one to scale.
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/shape.h"

#include <cstdint>

namespace gradstep {

/// A tensor seen as (outer, length, inner) around one axis.
struct AxisSplit {
    std::int64_t outer = 1, length = 1, inner = 1;
};

inline AxisSplit splitAt(const Shape& shape, int axis)
{
    AxisSplit s;
    if (shape.rank() == 0)
        return s;
    for (int a = 0; a < axis; ++a)
        s.outer *= shape[a];
    s.length = shape[axis];
    for (int a = axis + 1; a < shape.rank(); ++a)
        s.inner *= shape[a];
    return s;
}

/// log sum_j exp(x[j]) over a contiguous row of n > 0 elements, split as max + logSum with
/// logSum = log sum_j exp(x[j] - max), so callers can form (max - x_k) + logSum, which stays exact
/// near the maximum. The maximum ignores NaN (a NaN still reaches the sum); a row of all -Inf gives
/// max -Inf and logSum NaN, as do +Inf and NaN rows.
template <class T> struct LogSumExp {
    T max;
    T logSum;
};
template <class T> LogSumExp<T> logSumExp(const T* x, std::int64_t n);

/// y = softmax(x) (or log_softmax when `logOutput`) along the middle axis of `split`. A slice
/// holding NaN or +Inf, or only -Inf, gives NaN.
template <class T> void softmaxForward(const T* x, T* y, const AxisSplit& split, bool logOutput);

/// The gradient of softmax from its output y and cotangent dy: dx = y * (dy - sum(dy * y)); with
/// `logOutput`, of log_softmax: dx = dy - exp(y) * sum(dy). Sums run along the split's middle axis.
template <class T> void softmaxBackward(const T* y, const T* dy, T* dx, const AxisSplit& split, bool logOutput);

} // namespace gradstep
