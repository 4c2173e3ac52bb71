// MindSpore 2.2's initializer fills (see Note [MindSpore's initializer draws]).
// SPDX-License-Identifier: MIT
#include "random/mindspore_fill.h"

#include "random/erf_inv.h"
#include "random/philox.h"
#include "tensor/errors.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace gradstep {

namespace {

/// The word as a fraction of 2^32, exactly.
double wordFraction(std::uint32_t word) { return static_cast<double>(word) * 0x1.0p-32; }

/// The word's low 23 bits as the mantissa of a float in [1, 2), minus 1: 23 random bits.
double wordMantissa(std::uint32_t word)
{
    const float oneToTwo = std::bit_cast<float>((word & 0x7FFFFFu) | 0x3F800000u);
    return static_cast<double>(oneToTwo - 1.0f);
}

/// Standard normal CDF as MindSpore writes it, with its float sqrt(2).
double normalCdf(double x, double rootTwo) { return std::erfc(-(x / rootTwo)) / 2.0; }

} // namespace

void fillMindSporeUniform(std::uint64_t seed, float* out, std::size_t n, float low, float high)
{
    PhiloxStream words(seed);
    const double a = low, b = high;
    for (std::size_t i = 0; i < n; ++i)
        out[i] = static_cast<float>((b - a) * wordFraction(words.next()) + a);
}

void fillMindSporeNormal(std::uint64_t seed, float* out, std::size_t n, float mean, float sigma)
{
    // MindSpore's constants are float literals widened to double; using the float values keeps
    // every product the same.
    const double pi = 3.1415926f;
    const double smallest = 1.0e-7f;
    const double m = mean, s = sigma;
    PhiloxStream words(seed);
    for (std::size_t i = 0; i < n; i += 2) {
        const double u1 = std::max(wordMantissa(words.next()), smallest);
        const double u2 = std::max(wordMantissa(words.next()), smallest);
        const double radius = std::sqrt(-2.0 * std::log(u1)) * s;
        const double angle = 2.0 * pi * u2;
        out[i] = static_cast<float>(m + radius * std::cos(angle));
        if (i + 1 < n)
            out[i + 1] = static_cast<float>(m + radius * std::sin(angle));
    }
}

void fillMindSporeTruncatedNormal(std::uint64_t seed, float* out, std::size_t n, float low,
                                  float high, float mean, float sigma)
{
    if (sigma <= 0.0f)
        throw ValueError("TruncatedNormal: invalid sigma " + std::to_string(sigma));
    const double rootTwo = 1.4142135f;
    const double m = mean, s = sigma;
    const double cdfLow = normalCdf((static_cast<double>(low) - m) / s, rootTwo);
    const double cdfHigh = normalCdf((static_cast<double>(high) - m) / s, rootTwo);
    PhiloxStream words(seed);
    for (std::size_t i = 0; i < n; ++i) {
        const double p = cdfLow + wordFraction(words.next()) * (cdfHigh - cdfLow);
        const double standard = -erfcInvClamped(2.0 * p) * rootTwo;
        out[i] = static_cast<float>(m + standard * s);
    }
}

} // namespace gradstep
