// Eigen's own GEMM (SSE2 only: built without -march flags so the binary runs on any x86-64)
// against OpenBLAS (kernels picked at run time for the CPU), one thread, float32, on the shapes
// of the MLP 784-256-128-10 (batch 64) and LeNet5 (batch 32) training steps. Note [GEMM backend].
// SPDX-License-Identifier: MIT
#include "tensor/gemm.h"
#include "tests/bench/timing.h"

#include <cstdint>
#include <vector>

using namespace gradstep;
using namespace gradstep::bench;

namespace {
struct Case {
    const char* name;
    std::int64_t m, n, k;
    bool ta, tb;
};
} // namespace

int main()
{
    const Case cases[] = {
        {"mlp fc1 forward  64x784 * (256x784)^T", 64, 256, 784, false, true},
        {"mlp fc1 dW       (64x256)^T * 64x784", 256, 784, 64, true, false},
        {"mlp fc2 forward  64x256 * (128x256)^T", 64, 128, 256, false, true},
        {"lenet conv1 im2col 6x25 * 25x784", 6, 784, 25, false, false},
        {"lenet conv2 im2col 16x150 * 150x100", 16, 100, 150, false, false},
        {"lenet conv2 dcol  (16x150)^T * 16x100", 150, 100, 16, true, false},
    };
    std::printf("GEMM backend of this build: %s\n", gemmBackend());
    double totalBlas = 0, totalEigen = 0;
    for (const Case& c : cases) {
        std::vector<float> a(static_cast<std::size_t>(c.m * c.k), 0.5f), b(static_cast<std::size_t>(c.k * c.n), 0.25f),
            out(static_cast<std::size_t>(c.m * c.n));
        const std::int64_t lda = c.ta ? c.m : c.k, ldb = c.tb ? c.k : c.n;
        const double flop = 2.0 * static_cast<double>(c.m * c.n * c.k);
        const int inner = flop > 1e7 ? 5 : 50;
        Timing blas = measure([&] { gemm<float>(c.ta, c.tb, c.m, c.n, c.k, 1.f, a.data(), lda, b.data(), ldb, 0.f, out.data(), c.n); }, inner, 0.5);
        Timing eigen = measure([&] { gemmEigen<float>(c.ta, c.tb, c.m, c.n, c.k, 1.f, a.data(), lda, b.data(), ldb, 0.f, out.data(), c.n); }, inner, 0.5);
        std::printf("%-40s %s %8.1f us (%5.1f GFLOP/s)   eigen %8.1f us (%5.1f GFLOP/s)   ratio %.2fx\n", c.name,
                    gemmBackend(), blas.medianUs, flop / blas.medianUs / 1e3, eigen.medianUs,
                    flop / eigen.medianUs / 1e3, eigen.medianUs / blas.medianUs);
        totalBlas += blas.medianUs;
        totalEigen += eigen.medianUs;
    }
    std::printf("sum over the shapes: %s %.1f us, eigen %.1f us\n", gemmBackend(), totalBlas, totalEigen);
    return 0;
}
