// General matrix multiply on row-major buffers: C = alpha * op(A) * op(B) + beta * C.
// Note [GEMM backend]: OpenBLAS (runtime CPU dispatch, one thread) by default; Eigen's own
// kernels when built with GRADSTEP_USE_OPENBLAS=OFF. tests/bench/gemm_bench measures both.
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace gradstep {

template <class T>
void gemm(bool transposeA, bool transposeB, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
          const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc);

/// Eigen's own kernels regardless of the build's backend (for the benchmark).
template <class T>
void gemmEigen(bool transposeA, bool transposeB, std::int64_t m, std::int64_t n, std::int64_t k, T alpha,
               const T* a, std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc);

/// "openblas" or "eigen".
const char* gemmBackend();

} // namespace gradstep
