// F16C and portable paths of the float16 <-> float32 conversion. SPDX-License-Identifier: MIT
#include "tensor/half_convert.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
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
    for (; i < n; ++i)
        out[i] = Eigen::numext::bit_cast<Eigen::half>(
            static_cast<std::uint16_t>(_cvtss_sh(in[i], _MM_FROUND_TO_NEAREST_INT)));
}

bool hasF16C()
{
    static const bool has = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
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

void floatToHalf(const float* in, Eigen::half* out, std::int64_t n)
{
#ifdef GRADSTEP_HAS_F16C_PATH
    if (hasF16C())
        return floatToHalfF16C(in, out, n);
#endif
    floatToHalfPortable(in, out, n);
}

} // namespace gradstep
