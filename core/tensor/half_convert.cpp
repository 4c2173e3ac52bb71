// F16C and portable paths of the float16 <-> float32 conversion. SPDX-License-Identifier: MIT
#include "tensor/half_convert.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define GRADSTEP_HAS_F16C_PATH 1
#endif

namespace gradstep {

namespace {

void halfToFloatPortable(const Eigen::half* in, float* out, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i)
        out[i] = static_cast<float>(in[i]);
}

void floatToHalfPortable(const float* in, Eigen::half* out, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i)
        out[i] = Eigen::half(in[i]);
}

#ifdef GRADSTEP_HAS_F16C_PATH
// Eight lanes at a time; the tail goes through the same instruction one lane at a time, so the
// result never depends on where a value sits in the tensor.
__attribute__((target("avx,f16c"))) void halfToFloatF16C(const Eigen::half* in, float* out, std::int64_t n)
{
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(h));
    }
    for (; i < n; ++i)
        out[i] = _cvtsh_ss(Eigen::numext::bit_cast<std::uint16_t>(in[i]));
}

__attribute__((target("avx,f16c"))) void floatToHalfF16C(const float* in, Eigen::half* out, std::int64_t n)
{
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), h);
    }
    // One lane of the 128-bit form (clang's _cvtss_sh macro is a C99 compound literal).
    for (; i < n; ++i)
        out[i] = Eigen::numext::bit_cast<Eigen::half>(static_cast<std::uint16_t>(
            _mm_extract_epi16(_mm_cvtps_ph(_mm_set_ss(in[i]), _MM_FROUND_TO_NEAREST_INT), 0)));
}

template <HalfArith Op> __attribute__((target("avx,f16c"))) __m256 apply(__m256 x, __m256 y)
{
    if constexpr (Op == HalfArith::Add)
        return _mm256_add_ps(x, y);
    else if constexpr (Op == HalfArith::Sub)
        return _mm256_sub_ps(x, y);
    else if constexpr (Op == HalfArith::Mul)
        return _mm256_mul_ps(x, y);
    else
        return _mm256_div_ps(x, y);
}

template <HalfArith Op>
__attribute__((target("avx,f16c"))) void arithmeticF16C(const Eigen::half* a, const Eigen::half* b, Eigen::half* out,
                                                         std::int64_t n)
{
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 x = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i)));
        const __m256 y = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm256_cvtps_ph(apply<Op>(x, y), _MM_FROUND_TO_NEAREST_INT));
    }
    if (i == n)
        return;
    // The tail through the same lanes: padded with ones, so no lane traps or slows on garbage.
    alignas(16) std::uint16_t ta[8], tb[8], to[8];
    for (int k = 0; k < 8; ++k) {
        ta[k] = tb[k] = 0x3c00;
        if (i + k < n) {
            ta[k] = Eigen::numext::bit_cast<std::uint16_t>(a[i + k]);
            tb[k] = Eigen::numext::bit_cast<std::uint16_t>(b[i + k]);
        }
    }
    const __m256 x = _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(ta)));
    const __m256 y = _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(tb)));
    _mm_store_si128(reinterpret_cast<__m128i*>(to), _mm256_cvtps_ph(apply<Op>(x, y), _MM_FROUND_TO_NEAREST_INT));
    for (std::int64_t k = 0; i + k < n; ++k)
        out[i + k] = Eigen::numext::bit_cast<Eigen::half>(to[k]);
}

// CPUID leaf 1 (clang's __builtin_cpu_supports knows no "f16c"): AVX, F16C and OSXSAVE, and the
// OS saving the YMM registers (XGETBV), without which AVX instructions fault.
bool hasF16C()
{
    static const bool has = [] {
        unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
        if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
            return false;
        const bool osxsave = (ecx & (1u << 27)) != 0, avx = (ecx & (1u << 28)) != 0, f16c = (ecx & (1u << 29)) != 0;
        if (!(osxsave && avx && f16c))
            return false;
        unsigned lo = 0, hi = 0;
        __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        return (lo & 6u) == 6u;
    }();
    return has;
}
#endif

} // namespace

void halfToFloat(const Eigen::half* in, float* out, std::int64_t n)
{
#ifdef GRADSTEP_HAS_F16C_PATH
    if (hasF16C())
        return halfToFloatF16C(in, out, n);
#endif
    halfToFloatPortable(in, out, n);
}

bool halfArithmetic(HalfArith op, const Eigen::half* a, const Eigen::half* b, Eigen::half* out, std::int64_t n)
{
#ifdef GRADSTEP_HAS_F16C_PATH
    if (!hasF16C())
        return false;
    switch (op) {
    case HalfArith::Add: arithmeticF16C<HalfArith::Add>(a, b, out, n); break;
    case HalfArith::Sub: arithmeticF16C<HalfArith::Sub>(a, b, out, n); break;
    case HalfArith::Mul: arithmeticF16C<HalfArith::Mul>(a, b, out, n); break;
    case HalfArith::Div: arithmeticF16C<HalfArith::Div>(a, b, out, n); break;
    }
    return true;
#else
    (void)op, (void)a, (void)b, (void)out, (void)n;
    return false;
#endif
}

void floatToHalf(const float* in, Eigen::half* out, std::int64_t n)
{
#ifdef GRADSTEP_HAS_F16C_PATH
    if (hasF16C())
        return floatToHalfF16C(in, out, n);
#endif
    floatToHalfPortable(in, out, n);
}

} // namespace gradstep
