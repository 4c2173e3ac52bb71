// GeLU's constants and its slope per element, shared by GeLU's and GeLUGrad's kernels.
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>
#include <cstdint>

namespace gradstep::gelu_math {

inline constexpr double kSqrt2OverPi = 0.7978845608028654;
inline constexpr double kCubic = 0.044715;
inline constexpr double kInvSqrt2 = 0.7071067811865476;
inline constexpr double kInvSqrt2Pi = 0.3989422804014327;

/// u = c (x + k x^3), the tanh form's argument, into u (the float32 kernels then run Eigen's
/// vectorised tanh over it in place).
inline void tanhArgument(const float* x, float* u, std::int64_t n)
{
    const auto c = static_cast<float>(kSqrt2OverPi), k = static_cast<float>(kCubic);
    for (std::int64_t i = 0; i < n; ++i)
        u[i] = c * (x[i] + k * x[i] * x[i] * x[i]);
}

/// gelu'(x) in the tanh form from t = tanh(c (x + k x^3)):
///   (1 + t)/2 + x/2 (1 - t^2) c (1 + 3k x^2).
/// Where 1 - t^2 is 0 (|x| beyond ~9, and at +-inf) the second term is 0, not x * 0 = NaN once
/// x^2 overflows: the slope's limits 1 and 0.
template <class T> T tanhFormSlope(T x, T t)
{
    const T s = T(1) - t * t;
    const T tail = s == T(0) ? T(0)
                             : T(0.5) * x * s * static_cast<T>(kSqrt2OverPi)
                                   * (T(1) + T(3 * kCubic) * x * x);
    return T(0.5) * (T(1) + t) + tail;
}

/// gelu'(x) = Phi(x) + x phi(x) in either form, per element (the limits 1 and 0 at +-inf).
template <class T> T slope(T x, bool approximate)
{
    if (approximate)
        return tanhFormSlope(x, std::tanh(static_cast<T>(kSqrt2OverPi) * (x + static_cast<T>(kCubic) * x * x * x)));
    const T density = std::exp(T(-0.5) * x * x) * static_cast<T>(kInvSqrt2Pi);
    return T(0.5) * std::erfc(-x * static_cast<T>(kInvSqrt2)) + (density == T(0) ? T(0) : x * density);
}

} // namespace gradstep::gelu_math
