// The numerically stable softmax loop shared by Softmax, LogSoftmax and the cross-entropy losses:
// the maximum of each slice is subtracted before exp, so no exp overflows. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/shape.h"

#include <cmath>
#include <cstdint>
#include <limits>

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

/// max_j x[j * stride] over n > 0 elements, NaN-ignoring (a NaN still reaches the sum after it).
template <class T> T sliceMax(const T* x, std::int64_t n, std::int64_t stride)
{
    T m = -std::numeric_limits<T>::infinity();
    for (std::int64_t j = 0; j < n; ++j)
        m = x[j * stride] > m ? x[j * stride] : m;
    return m;
}

/// log sum_j exp(x[j * stride]) split as max + logSum, logSum = log sum_j exp(x[j * stride] - max),
/// so callers can form (max - x_k) + logSum, which stays exact near the maximum. A slice of all
/// -Inf gives max -Inf and logSum NaN, as do +Inf and NaN slices.
template <class T> struct LogSumExp {
    T max;
    T logSum;
};

template <class T> LogSumExp<T> logSumExp(const T* x, std::int64_t n, std::int64_t stride)
{
    const T m = sliceMax(x, n, stride);
    T sum = 0;
    for (std::int64_t j = 0; j < n; ++j)
        sum += std::exp(x[j * stride] - m);
    return {m, std::log(sum)};
}

/// y = softmax(x) (or log_softmax when `logOutput`) along the middle axis of `split`.
template <class T> void softmaxForward(const T* x, T* y, const AxisSplit& split, bool logOutput)
{
    const std::int64_t n = split.length, stride = split.inner;
    for (std::int64_t o = 0; o < split.outer; ++o)
        for (std::int64_t i = 0; i < split.inner; ++i) {
            const std::int64_t base = o * n * stride + i;
            const T m = sliceMax(x + base, n, stride);
            T sum = 0;
            for (std::int64_t j = 0; j < n; ++j) {
                const T e = std::exp(x[base + j * stride] - m);
                sum += e;
                if (!logOutput)
                    y[base + j * stride] = e;
            }
            if (logOutput) {
                // (x - m) first: it is exact near the maximum, where m + log(sum) would round.
                const T logSum = std::log(sum);
                for (std::int64_t j = 0; j < n; ++j)
                    y[base + j * stride] = (x[base + j * stride] - m) - logSum;
            } else {
                const T inv = T(1) / sum;
                for (std::int64_t j = 0; j < n; ++j)
                    y[base + j * stride] *= inv;
            }
        }
}

} // namespace gradstep
