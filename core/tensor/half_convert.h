// Bulk conversion between float16 and float32, the conversion every float16 op does twice (its
// inputs widened to float32, its result rounded back). With the CPU's F16C instructions when it
// has them (checked once at run time, so the build needs no -march), otherwise element by
// element through Eigen::half; both round to nearest even, overflow to inf, keep subnormals,
// and turn a NaN into a quiet NaN. SPDX-License-Identifier: MIT
#pragma once

#include <Eigen/Core>

#include <cstdint>

namespace gradstep {

void halfToFloat(const Eigen::half* in, float* out, std::int64_t n);
void floatToHalf(const float* in, Eigen::half* out, std::int64_t n);

/// The four IEEE operations, for halfArithmetic.
enum class HalfArith { Add, Sub, Mul, Div };
/// out[i] = half(float(a[i]) op float(b[i])): the two widenings, the float32 operation and the
/// rounding fused in one pass, the same bits as converting, computing and converting back. False
/// (and nothing written) when the CPU lacks F16C: the caller then takes the general path.
bool halfArithmetic(HalfArith op, const Eigen::half* a, const Eigen::half* b, Eigen::half* out, std::int64_t n);

} // namespace gradstep
