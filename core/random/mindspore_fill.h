// MindSpore 2.2's initializer fills: the float32 buffers its _random_uniform, _random_normal and
// _truncated_normal write for a seed, reproduced bit for bit. SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>

namespace gradstep {

// Note [MindSpore's initializer draws]
// MindSpore fills an initializer's buffer from the Philox stream of one 64-bit seed
// (PhiloxStream), one 32-bit word per element, in row-major order. Each element is computed in
// double from the word and the parameters, which reach MindSpore's C++ as float (so a Python
// bound is rounded to float first), and the result is rounded once to float.
//   uniform(a, b):         s = word / 2^32; (b - a) * s + a.
//   normal(mean, sigma):   Box-Muller on a pair of words. A word becomes u in [0, 1) by keeping
//                          its low 23 bits as the mantissa of a float in [1, 2) and subtracting 1;
//                          u is raised to 1e-7f at least. With r = sqrt(-2 ln u1) * sigma and
//                          t = 2 * 3.1415926f * u2, the pair gives mean + r cos t, then
//                          mean + r sin t.
//   truncated_normal(a, b, mean, sigma): inverse CDF. With alpha, beta = (a, b - mean) / sigma
//                          (a and b are absolute bounds, not multiples of sigma) and
//                          Phi(x) = erfc(-x / 1.4142135f) / 2, p = Phi(alpha) + s (Phi(beta) -
//                          Phi(alpha)) for s = word / 2^32, and the value is mean + sigma *
//                          (-1.4142135f * erfc_inv(2p)) (erfInvBoost; 2p clamped into (0, 2)).
// MindSpore splits large buffers over threads, but each chunk starts at a multiple of four
// elements and skips the stream ahead to its first element; as every element takes exactly one
// word (a normal pair two, for an aligned pair of elements), the result does not depend on the
// thread count, and generating in one pass gives the same buffer.

/// U(low, high) into out[0, n).
void fillMindSporeUniform(std::uint64_t seed, float* out, std::size_t n, float low, float high);
/// N(mean, sigma^2) into out[0, n).
void fillMindSporeNormal(std::uint64_t seed, float* out, std::size_t n, float mean, float sigma);
/// N(mean, sigma^2) restricted to [low, high] into out[0, n); sigma must be > 0 (ValueError).
void fillMindSporeTruncatedNormal(std::uint64_t seed, float* out, std::size_t n, float low,
                                  float high, float mean, float sigma);

} // namespace gradstep
