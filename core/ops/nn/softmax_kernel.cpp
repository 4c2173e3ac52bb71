// The softmax kernels (see softmax_kernel.h). A contiguous slice (softmax along the last axis, the
// common case) goes through Eigen array maps, whose max and sum use SIMD packets, and float32
// exp through vector_exp.h (AVX2 when the CPU has it); a strided
// slice (an earlier axis) is computed for `inner` slices at once, row j of the block being the
// j-th element of every slice, so the loops still run over contiguous memory.
// SPDX-License-Identifier: MIT
#include "ops/nn/softmax_kernel.h"

#include "ops/nn/vector_exp.h"

#include <Eigen/Core>

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace gradstep {

namespace {

template <class T> using Row = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T> using RowOut = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;

/// NaN-ignoring maximum (Eigen's PropagateNumbers), so a NaN reaches the sum and not the max.
template <class T> T rowMax(const T* x, std::int64_t n)
{
    return Row<T>(x, n).template maxCoeff<Eigen::PropagateNumbers>();
}

template <class T> void contiguousForward(const T* x, T* y, std::int64_t n, bool logOutput)
{
    const T m = rowMax(x, n);
    RowOut<T> out(y, n);
    T sum;
    if constexpr (std::is_same_v<T, float>) {
        sum = vexp::expShiftSum(x, m, logOutput ? nullptr : y, n);
    } else {
        out = (Row<T>(x, n) - m).exp();
        sum = out.sum();
    }
    if (logOutput) // (x - m) - log(sum): exact near the maximum, where x - (m + log(sum)) rounds
        out = (Row<T>(x, n) - m) - std::log(sum);
    else
        out *= T(1) / sum;
}

// `inner` slices at once: element j of slice i is x[j * inner + i].
template <class T> void stridedForward(const T* x, T* y, std::int64_t n, std::int64_t inner, bool logOutput,
                                       std::vector<T>& m, std::vector<T>& s)
{
    m.assign(static_cast<std::size_t>(inner), -std::numeric_limits<T>::infinity());
    s.assign(static_cast<std::size_t>(inner), T(0));
    for (std::int64_t j = 0; j < n; ++j)
        for (std::int64_t i = 0; i < inner; ++i) {
            const T v = x[j * inner + i];
            m[i] = v > m[i] ? v : m[i]; // NaN-ignoring, as rowMax
        }
    const RowOut<T> mv(m.data(), inner);
    RowOut<T> sv(s.data(), inner);
    for (std::int64_t j = 0; j < n; ++j) {
        RowOut<T> e(y + j * inner, inner);
        e = (Row<T>(x + j * inner, inner) - mv).exp();
        sv += e;
    }
    if (logOutput) {
        sv = sv.log();
        for (std::int64_t j = 0; j < n; ++j)
            RowOut<T>(y + j * inner, inner) = (Row<T>(x + j * inner, inner) - mv) - sv;
    } else {
        sv = sv.inverse();
        for (std::int64_t j = 0; j < n; ++j)
            RowOut<T>(y + j * inner, inner) *= sv;
    }
}

template <class T> void contiguousBackward(const T* y, const T* dy, T* dx, std::int64_t n, bool logOutput)
{
    const Row<T> yr(y, n), g(dy, n);
    RowOut<T> out(dx, n);
    if constexpr (std::is_same_v<T, float>)
        if (logOutput)
            return vexp::expScaleSub(y, dy, g.sum(), dx, n);
    if (logOutput)
        out = g - yr.exp() * g.sum();
    else
        out = yr * (g - (g * yr).sum());
}

template <class T> void stridedBackward(const T* y, const T* dy, T* dx, std::int64_t n, std::int64_t inner,
                                        bool logOutput, std::vector<T>& s)
{
    s.assign(static_cast<std::size_t>(inner), T(0));
    RowOut<T> sv(s.data(), inner);
    for (std::int64_t j = 0; j < n; ++j) {
        const Row<T> g(dy + j * inner, inner);
        if (logOutput)
            sv += g;
        else
            sv += g * Row<T>(y + j * inner, inner);
    }
    for (std::int64_t j = 0; j < n; ++j) {
        const Row<T> yr(y + j * inner, inner), g(dy + j * inner, inner);
        RowOut<T> out(dx + j * inner, inner);
        if (logOutput)
            out = g - yr.exp() * sv;
        else
            out = yr * (g - sv);
    }
}

} // namespace

template <class T> LogSumExp<T> logSumExp(const T* x, std::int64_t n)
{
    if (n == 0) // no classes: exp sums to 0
        return {-std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity()};
    const T m = rowMax(x, n);
    if constexpr (std::is_same_v<T, float>)
        return {m, std::log(vexp::expShiftSum(x, m, nullptr, n))};
    else
        return {m, std::log((Row<T>(x, n) - m).exp().sum())};
}

template <class T> void softmaxForward(const T* x, T* y, const AxisSplit& split, bool logOutput)
{
    const std::int64_t n = split.length, inner = split.inner, block = n * inner;
    if (block == 0)
        return;
    std::vector<T> m, s;
    for (std::int64_t o = 0; o < split.outer; ++o) {
        if (inner == 1)
            contiguousForward(x + o * block, y + o * block, n, logOutput);
        else
            stridedForward(x + o * block, y + o * block, n, inner, logOutput, m, s);
    }
}

template <class T> void softmaxBackward(const T* y, const T* dy, T* dx, const AxisSplit& split, bool logOutput)
{
    const std::int64_t n = split.length, inner = split.inner, block = n * inner;
    if (block == 0)
        return;
    std::vector<T> s;
    for (std::int64_t o = 0; o < split.outer; ++o) {
        if (inner == 1)
            contiguousBackward(y + o * block, dy + o * block, dx + o * block, n, logOutput);
        else
            stridedBackward(y + o * block, dy + o * block, dx + o * block, n, inner, logOutput, s);
    }
}

template LogSumExp<float> logSumExp(const float*, std::int64_t);
template LogSumExp<double> logSumExp(const double*, std::int64_t);
template void softmaxForward(const float*, float*, const AxisSplit&, bool);
template void softmaxForward(const double*, double*, const AxisSplit&, bool);
template void softmaxBackward(const float*, const float*, float*, const AxisSplit&, bool);
template void softmaxBackward(const double*, const double*, double*, const AxisSplit&, bool);

} // namespace gradstep
