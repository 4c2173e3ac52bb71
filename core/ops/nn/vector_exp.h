// float32 loops around exp (softmax sums, SiLU) with an AVX2 + FMA path chosen at run time. The
// build targets baseline x86-64 (SSE2), where Eigen's vectorised exp ran no faster than glibc's
// scalar expf (2.2 ms per million floats, 0.5 ms with AVX2 on this machine): PyTorch's kernels
// dispatch to AVX2, and these do the same without compiling whole files for it (whose inline
// Eigen functions could then be shared with baseline code by the linker).
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace gradstep::vexp {

/// sum_i exp(x[i] - shift), writing each term to y[i] unless y is null.
float expShiftSum(const float* x, float shift, float* y, std::int64_t n);
/// dx[i] = dy[i] - exp(y[i]) * s (LogSoftmax's gradient along a row).
void expScaleSub(const float* y, const float* dy, float s, float* dx, std::int64_t n);
/// y = x / (1 + exp(-x)).
void silu(const float* x, float* y, std::int64_t n);
/// dx = dy * s * (1 + x * (1 - s)), s = 1 / (1 + exp(-x)).
void siluGrad(const float* x, const float* dy, float* dx, std::int64_t n);

} // namespace gradstep::vexp
