// What the debugger shows of complex tensors: statistics of |z|, NaN in either part counted,
// relative change by complex distance, and the graph's short dtype names.
// SPDX-License-Identifier: MIT
#include "debug/tensor_stats.h"
#include "graph/graph.h"
#include "tensor/dtype_storage.h"

#include <catch2/catch.hpp>

#include <complex>
#include <limits>

using namespace gradstep;

namespace {
using C = std::complex<double>;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
} // namespace

TEST_CASE("complex tensor statistics are of the magnitudes and see NaN in either part")
{
    const Tensor z = Tensor::fromVector<C>({4}, {{3, 4}, {0, -2}, {kInf, kNaN}, {1, kNaN}});
    const debug::TensorStats s = debug::computeStats(z);
    CHECK(s.dtype == DType::Complex128);
    CHECK(s.nanCount == 2); // hypot(inf, nan) is inf: the NaN part must still count
    CHECK(s.min == Approx(2));
    CHECK(s.max == Approx(5));
    CHECK(s.summary().find("Complex128 |z| min 2") != std::string::npos);
    const Tensor f = Tensor::fromVector<std::complex<float>>({1}, {{-3.f, 4.f}});
    CHECK(debug::computeStats(f).max == Approx(5));
}

TEST_CASE("relative change of complex tensors uses the complex distance")
{
    const Tensor before = Tensor::fromVector<C>({2}, {{1, 0}, {0, 1}});
    const Tensor after = Tensor::fromVector<C>({2}, {{1, 1}, {0, 1}});
    // mean |after - before| = 0.5, mean |before| = 1
    CHECK(debug::relativeChange(before, after, 0.0) == Approx(0.5));
    // An imaginary-only change is seen when one side is real.
    const Tensor real = Tensor::fromVector<double>({2}, {1, 0});
    CHECK(debug::relativeChange(real, before, 0.0) == Approx(1.0));
}

TEST_CASE("the graph view names complex dtypes c64 and c128")
{
    CHECK(shortDTypeName(DType::Complex64) == "c64");
    CHECK(shortDTypeName(DType::Complex128) == "c128");
}
