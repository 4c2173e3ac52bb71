// The exp loops of vector_exp.h. The AVX2 exp is Cephes' expf (as Eigen's): n = round(x / ln 2),
// r = x - n ln 2 in two parts, a degree-6 polynomial for exp(r), times 2^n built in the exponent
// bits (as two factors, so results down to the denormals and up to FLT_MAX are exact in range);
// x > ln(FLT_MAX) gives +inf, NaN stays NaN, -inf gives 0, within 2 ulp of glibc's expf elsewhere.
// Tails shorter than a vector use std::exp. The fallback is Eigen (SSE2).
// SPDX-License-Identifier: MIT
#include "ops/nn/vector_exp.h"

#include <Eigen/Core>

#include <cmath>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define GRADSTEP_VEXP_AVX2 1
#endif

namespace gradstep::vexp {

namespace {

using Arr = Eigen::Map<const Eigen::ArrayXf>;
using ArrOut = Eigen::Map<Eigen::ArrayXf>;

#ifdef GRADSTEP_VEXP_AVX2
#define AVX2 __attribute__((target("avx2,fma")))

AVX2 __m256 exp8(__m256 x)
{
    const __m256 hi = _mm256_set1_ps(88.7228394f), lo = _mm256_set1_ps(-104.0f);
    const __m256 nan = _mm256_cmp_ps(x, x, _CMP_UNORD_Q);
    const __m256 over = _mm256_cmp_ps(x, hi, _CMP_GT_OQ);
    const __m256 v = _mm256_min_ps(_mm256_max_ps(x, lo), hi);
    const __m256 n = _mm256_round_ps(_mm256_mul_ps(v, _mm256_set1_ps(1.44269504088896341f)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), v);
    r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
    __m256 p = _mm256_set1_ps(1.9875691500e-4f);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
    p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
    const __m256i ni = _mm256_cvtps_epi32(n);
    const __m256i n1 = _mm256_srai_epi32(ni, 1), n2 = _mm256_sub_epi32(ni, n1);
    const __m256i bias = _mm256_set1_epi32(127);
    const __m256 s1 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n1, bias), 23));
    const __m256 s2 = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(n2, bias), 23));
    __m256 y = _mm256_mul_ps(_mm256_mul_ps(p, s1), s2);
    y = _mm256_blendv_ps(y, _mm256_set1_ps(INFINITY), over);
    return _mm256_blendv_ps(y, x, nan);
}

AVX2 float hsum(__m256 v)
{
    const __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 t = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(t, _mm_shuffle_ps(t, t, 1)));
}

AVX2 float expShiftSumAvx2(const float* x, float shift, float* y, std::int64_t n)
{
    const __m256 sh = _mm256_set1_ps(shift);
    __m256 acc0 = _mm256_setzero_ps(), acc1 = _mm256_setzero_ps();
    std::int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256 e0 = exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i), sh));
        const __m256 e1 = exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i + 8), sh));
        if (y) {
            _mm256_storeu_ps(y + i, e0);
            _mm256_storeu_ps(y + i + 8, e1);
        }
        acc0 = _mm256_add_ps(acc0, e0);
        acc1 = _mm256_add_ps(acc1, e1);
    }
    for (; i + 8 <= n; i += 8) {
        const __m256 e = exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i), sh));
        if (y)
            _mm256_storeu_ps(y + i, e);
        acc0 = _mm256_add_ps(acc0, e);
    }
    float sum = hsum(_mm256_add_ps(acc0, acc1));
    for (; i < n; ++i) {
        const float e = std::exp(x[i] - shift);
        if (y)
            y[i] = e;
        sum += e;
    }
    return sum;
}

AVX2 void expScaleSubAvx2(const float* y, const float* dy, float s, float* dx, std::int64_t n)
{
    const __m256 sv = _mm256_set1_ps(s);
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(dx + i, _mm256_fnmadd_ps(exp8(_mm256_loadu_ps(y + i)), sv, _mm256_loadu_ps(dy + i)));
    for (; i < n; ++i)
        dx[i] = dy[i] - std::exp(y[i]) * s;
}

AVX2 void siluAvx2(const float* x, float* y, std::int64_t n)
{
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        _mm256_storeu_ps(y + i, _mm256_div_ps(v, _mm256_add_ps(one, exp8(_mm256_sub_ps(zero, v)))));
    }
    for (; i < n; ++i)
        y[i] = x[i] / (1.0f + std::exp(-x[i]));
}

AVX2 void siluGradAvx2(const float* x, const float* dy, float* dx, std::int64_t n)
{
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        const __m256 s = _mm256_div_ps(one, _mm256_add_ps(one, exp8(_mm256_sub_ps(zero, v))));
        const __m256 inner = _mm256_fmadd_ps(v, _mm256_sub_ps(one, s), one);
        _mm256_storeu_ps(dx + i, _mm256_mul_ps(_mm256_mul_ps(_mm256_loadu_ps(dy + i), s), inner));
    }
    for (; i < n; ++i) {
        const float s = 1.0f / (1.0f + std::exp(-x[i]));
        dx[i] = dy[i] * s * (1.0f + x[i] * (1.0f - s));
    }
}

#undef AVX2

const bool kAvx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
constexpr bool kAvx2 = false;
#endif

} // namespace

float expShiftSum(const float* x, float shift, float* y, std::int64_t n)
{
#ifdef GRADSTEP_VEXP_AVX2
    if (kAvx2)
        return expShiftSumAvx2(x, shift, y, n);
#endif
    if (!y)
        return (Arr(x, n) - shift).exp().sum();
    ArrOut out(y, n);
    out = (Arr(x, n) - shift).exp();
    return out.sum();
}

void expScaleSub(const float* y, const float* dy, float s, float* dx, std::int64_t n)
{
#ifdef GRADSTEP_VEXP_AVX2
    if (kAvx2)
        return expScaleSubAvx2(y, dy, s, dx, n);
#endif
    ArrOut(dx, n) = Arr(dy, n) - Arr(y, n).exp() * s;
}

void silu(const float* x, float* y, std::int64_t n)
{
#ifdef GRADSTEP_VEXP_AVX2
    if (kAvx2)
        return siluAvx2(x, y, n);
#endif
    const Arr v(x, n);
    ArrOut(y, n) = v / (1.0f + (-v).exp());
}

void siluGrad(const float* x, const float* dy, float* dx, std::int64_t n)
{
#ifdef GRADSTEP_VEXP_AVX2
    if (kAvx2)
        return siluGradAvx2(x, dy, dx, n);
#endif
    const Arr v(x, n), g(dy, n);
    const Eigen::ArrayXf s = 1.0f / (1.0f + (-v).exp());
    ArrOut(dx, n) = g * s * (1.0f + v * (1.0f - s));
}

} // namespace gradstep::vexp
