// Tests of MatMul and BatchMatMul (core/ops/nn/matmul.cpp, batch_matmul.cpp) against a naive
// triple loop. SPDX-License-Identifier: MIT
#include "ops/ops.h"
#include "tests/core/ops/gradcheck.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;
using gradstep::testing::sample;

namespace {

// C[b] = op(A[b]) op(B[b]) over the broadcast batch of `out`, by index arithmetic only.
std::vector<double> naive(const Tensor& a, const Tensor& b, bool ta, bool tb, const Shape& out)
{
    const int ra = a.rank(), rb = b.rank(), rc = out.rank();
    const std::int64_t m = out[rc - 2], n = out[rc - 1], k = ta ? a.shape()[ra - 2] : a.shape()[ra - 1];
    std::vector<double> c(static_cast<std::size_t>(out.numel()));
    const std::int64_t batch = out.numel() / (m * n);
    for (std::int64_t bi = 0; bi < batch; ++bi) {
        // Decompose the batch index and map it into each operand (size-1 axes broadcast).
        std::int64_t offA = 0, offB = 0, rest = bi, strideA = 1, strideB = 1;
        for (int axis = rc - 3; axis >= 0; --axis) {
            const std::int64_t idx = rest % out[axis];
            rest /= out[axis];
            const int axA = axis - (rc - ra), axB = axis - (rc - rb);
            if (axA >= 0) {
                offA += (a.shape()[axA] == 1 ? 0 : idx) * strideA;
                strideA *= a.shape()[axA];
            }
            if (axB >= 0) {
                offB += (b.shape()[axB] == 1 ? 0 : idx) * strideB;
                strideB *= b.shape()[axB];
            }
        }
        const std::int64_t as0 = a.shape()[ra - 2], as1 = a.shape()[ra - 1];
        const std::int64_t bs0 = b.shape()[rb - 2], bs1 = b.shape()[rb - 1];
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
                double s = 0;
                for (std::int64_t p = 0; p < k; ++p)
                    s += a.at(offA * as0 * as1 + (ta ? p * as1 + i : i * as1 + p))
                         * b.at(offB * bs0 * bs1 + (tb ? j * bs1 + p : p * bs1 + j));
                c[static_cast<std::size_t>((bi * m + i) * n + j)] = s;
            }
    }
    return c;
}

void checkMatmul(const Shape& as, const Shape& bs, bool ta, bool tb, const Shape& expected)
{
    const Tensor a = sample(as, -1, 1, 1), b = sample(bs, -1, 1, 2);
    const Tensor c = matmul(a, b, ta, tb);
    REQUIRE(c.shape() == expected);
    const std::vector<double> ref = naive(a, b, ta, tb, expected);
    for (std::int64_t i = 0; i < c.numel(); ++i)
        CHECK(c.at(i) == Approx(ref[static_cast<std::size_t>(i)]).margin(1e-12));
    const Tensor c32 = matmul(cast(a, DType::Float32), cast(b, DType::Float32), ta, tb);
    for (std::int64_t i = 0; i < c.numel(); ++i)
        CHECK(c32.at(i) == Approx(ref[static_cast<std::size_t>(i)]).margin(1e-4));
}

} // namespace

TEST_CASE("matmul of 2-D inputs matches a naive loop under every transpose flag")
{
    checkMatmul({3, 4}, {4, 5}, false, false, {3, 5});
    checkMatmul({4, 3}, {4, 5}, true, false, {3, 5});
    checkMatmul({3, 4}, {5, 4}, false, true, {3, 5});
    checkMatmul({4, 3}, {5, 4}, true, true, {3, 5});
    checkMatmul({64, 784}, {256, 784}, false, true, {64, 256});
}

TEST_CASE("batched matmul broadcasts the batch dimensions")
{
    checkMatmul({2, 3, 4}, {4, 5}, false, false, {2, 3, 5});
    checkMatmul({2, 4, 3}, {4, 5}, true, false, {2, 3, 5});
    checkMatmul({3, 4}, {2, 4, 5}, false, false, {2, 3, 5});
    checkMatmul({2, 1, 3, 4}, {3, 5, 4}, false, true, {2, 3, 3, 5});
    checkMatmul({1, 2, 4, 3}, {3, 1, 5, 4}, true, true, {3, 2, 3, 5});
}

TEST_CASE("matmul treats 1-D operands as vectors and drops their axis")
{
    const Tensor v = Tensor::fromVector<double>({3}, {1, 2, 3});
    const Tensor m = Tensor::fromVector<double>({3, 2}, {1, 0, 0, 1, 1, 1});
    const Tensor vm = matmul(v, m);
    CHECK(vm.shape() == Shape{2});
    CHECK(vm.toDoubles() == std::vector<double>{4, 5});
    const Tensor mv = matmul(m, Tensor::fromVector<double>({2}, {1, -1}));
    CHECK(mv.shape() == Shape{3});
    CHECK(mv.toDoubles() == std::vector<double>{1, -1, 0});
    const Tensor dot = matmul(v, v);
    CHECK(dot.shape() == Shape{});
    CHECK(dot.item() == 14.0);
}

TEST_CASE("matmul with an empty contracting dimension gives zeros")
{
    const Tensor c = matmul(Tensor::zeros({2, 0}), Tensor::zeros({0, 3}));
    CHECK(c.shape() == Shape{2, 3});
    CHECK(c.toDoubles() == std::vector<double>(6, 0.0));
    CHECK(matmul(Tensor::zeros({4, 2, 0}), Tensor::zeros({0, 3})).toDoubles() == std::vector<double>(24, 0.0));
}

TEST_CASE("matmul errors name the op and the shapes")
{
    CHECK_THROWS_AS(matmul(Tensor::zeros({2, 3}), Tensor::zeros({4, 5})), ShapeError);
    CHECK_THROWS_WITH(matmul(Tensor::zeros({2, 3}), Tensor::zeros({4, 5})),
                      Catch::Contains("'MatMul'") && Catch::Contains("[2, 3] gives 3") && Catch::Contains("[4, 5] gives 4"));
    CHECK_THROWS_WITH(matmul(Tensor::zeros({2, 2, 3}), Tensor::zeros({3, 3, 4})),
                      Catch::Contains("'BatchMatMul'") && Catch::Contains("[2]") && Catch::Contains("[3]"));
    CHECK_THROWS_AS(matmul(Tensor::zeros({2, 3}), Tensor::zeros({3, 2}, DType::Float64)), DTypeError);
    // MindSpore's CPU MatMul takes the signed integers and UInt8, not Bool or the wider unsigned ones.
    CHECK_THROWS_AS(matmul(Tensor::zeros({2, 3}, DType::Bool), Tensor::zeros({3, 2}, DType::Bool)), DTypeError);
    CHECK_THROWS_AS(matmul(Tensor::zeros({2, 3}, DType::UInt16), Tensor::zeros({3, 2}, DType::UInt16)), DTypeError);
    CHECK(matmul(Tensor::full({2, 3}, 2, DType::Int32), Tensor::full({3, 2}, 3, DType::Int32)).at(0) == 18);
    CHECK_THROWS_AS(matmul(Tensor::scalar(1), Tensor::zeros({3, 2})), ShapeError);
}
