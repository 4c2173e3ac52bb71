// GEMM backends (see Note [GEMM backend] in gemm.h). SPDX-License-Identifier: MIT
#include "tensor/gemm.h"

#include <Eigen/Core>

#include <complex>
#include <type_traits>

#ifdef GRADSTEP_USE_OPENBLAS
#include <cblas.h>
#endif

namespace gradstep {

namespace {
template <class T>
constexpr bool kIsComplexGemm = !std::is_floating_point_v<T>;

template <class T>
using RowMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0, Eigen::OuterStride<>>;
template <class T>
using ConstRowMap = Eigen::Map<const Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0, Eigen::OuterStride<>>;

#ifdef GRADSTEP_USE_OPENBLAS
void blasGemm(bool ta, bool tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
              int ldb, float beta, float* c, int ldc)
{
    cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, alpha,
                a, lda, b, ldb, beta, c, ldc);
}
void blasGemm(bool ta, bool tb, int m, int n, int k, double alpha, const double* a, int lda, const double* b,
              int ldb, double beta, double* c, int ldc)
{
    cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, alpha,
                a, lda, b, ldb, beta, c, ldc);
}

// One thread: results must not depend on the thread count, and the GUI runs other work beside.
void pinOneThread()
{
    static const bool pinned = [] {
        openblas_set_num_threads(1);
        return true;
    }();
    (void)pinned;
}
#endif
} // namespace

template <class T>
void gemmEigen(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
               std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc)
{
    if (m == 0 || n == 0)
        return;
    RowMap<T> C(c, m, n, Eigen::OuterStride<>(ldc));
    if (k == 0) {
        // beta = 0 means C is not read (it may hold uninitialised NaNs), as in BLAS.
        if (beta == T(0))
            C.setZero();
        else
            C *= beta;
        return;
    }
    ConstRowMap<T> A(a, ta ? k : m, ta ? m : k, Eigen::OuterStride<>(lda));
    ConstRowMap<T> B(b, tb ? n : k, tb ? k : n, Eigen::OuterStride<>(ldb));
    if (beta == T(0))
        C.setZero();
    else if (beta != T(1))
        C *= beta;
    if (ta && tb)
        C.noalias() += alpha * A.transpose() * B.transpose();
    else if (ta)
        C.noalias() += alpha * A.transpose() * B;
    else if (tb)
        C.noalias() += alpha * A * B.transpose();
    else
        C.noalias() += alpha * A * B;
}

template <class T>
void gemm(bool ta, bool tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a, std::int64_t lda,
          const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc)
{
    if constexpr (std::is_integral_v<T>) {
        // Integer products wrap around, as MindSpore's CPU kernels do: computed in the unsigned
        // type of the same width, where wrapping is defined (signed overflow is not).
        using U = std::make_unsigned_t<T>;
        gemmEigen<U>(ta, tb, m, n, k, static_cast<U>(alpha), reinterpret_cast<const U*>(a), lda,
                     reinterpret_cast<const U*>(b), ldb, static_cast<U>(beta), reinterpret_cast<U*>(c), ldc);
        return;
    }
#ifdef GRADSTEP_USE_OPENBLAS
    if constexpr (kIsComplexGemm<T>) {
        gemmEigen(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    } else {
        if (m == 0 || n == 0)
            return;
        if (k == 0) {
            gemmEigen(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
            return;
        }
        pinOneThread();
        blasGemm(ta, tb, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), alpha, a,
                 static_cast<int>(lda), b, static_cast<int>(ldb), beta, c, static_cast<int>(ldc));
    }
#else
    gemmEigen(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
#endif
}

const char* gemmBackend()
{
#ifdef GRADSTEP_USE_OPENBLAS
    return "openblas";
#else
    return "eigen";
#endif
}

template void gemm<float>(bool, bool, std::int64_t, std::int64_t, std::int64_t, float, const float*, std::int64_t,
                          const float*, std::int64_t, float, float*, std::int64_t);
template void gemm<double>(bool, bool, std::int64_t, std::int64_t, std::int64_t, double, const double*,
                           std::int64_t, const double*, std::int64_t, double, double*, std::int64_t);
template void gemmEigen<float>(bool, bool, std::int64_t, std::int64_t, std::int64_t, float, const float*,
                               std::int64_t, const float*, std::int64_t, float, float*, std::int64_t);
template void gemmEigen<double>(bool, bool, std::int64_t, std::int64_t, std::int64_t, double, const double*,
                                std::int64_t, const double*, std::int64_t, double, double*, std::int64_t);

template void gemm<std::int32_t>(bool, bool, std::int64_t, std::int64_t, std::int64_t, std::int32_t,
                                 const std::int32_t*, std::int64_t, const std::int32_t*, std::int64_t, std::int32_t,
                                 std::int32_t*, std::int64_t);
template void gemm<std::int64_t>(bool, bool, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                                 const std::int64_t*, std::int64_t, const std::int64_t*, std::int64_t, std::int64_t,
                                 std::int64_t*, std::int64_t);

// Complex products always run on Eigen's kernels (OpenBLAS's cgemm/zgemm are not wired up).
template void gemm<std::complex<float>>(bool, bool, std::int64_t, std::int64_t, std::int64_t, std::complex<float>,
                                        const std::complex<float>*, std::int64_t, const std::complex<float>*,
                                        std::int64_t, std::complex<float>, std::complex<float>*, std::int64_t);
template void gemm<std::complex<double>>(bool, bool, std::int64_t, std::int64_t, std::int64_t, std::complex<double>,
                                         const std::complex<double>*, std::int64_t, const std::complex<double>*,
                                         std::int64_t, std::complex<double>, std::complex<double>*, std::int64_t);

} // namespace gradstep
