// Tests of norm (core/ops/reduction/norm.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

namespace {
// [[3, -4], [0, 0]]
Tensor matrix(DType dtype = DType::Float64) { return Tensor::fromDoubles({2, 2}, {3, -4, 0, 0}, dtype); }

Tensor normGrad(const Tensor& x, std::vector<std::int64_t> axis, double p)
{
    auto f = [&](const std::vector<Value>& v) -> Value { return reduceSum(norm(v[0].tensor(), axis, p)); };
    return grad(f)({x}).tensor();
}
} // namespace

TEST_CASE("norm is the p-norm over the given axes")
{
    CHECK(norm(matrix()).item() == 5.0);
    CHECK(norm(matrix(), {1}).toDoubles() == std::vector<double>{5, 0});
    CHECK(norm(matrix(), {1}, 1.0).toDoubles() == std::vector<double>{7, 0});
    CHECK(norm(matrix(), {-1}, 3.0).at(0) == Approx(std::cbrt(27.0 + 64.0)));
    CHECK(norm(matrix(DType::Float32), {0}, 2.0, true).shape() == Shape{1, 2});
    CHECK(norm(Tensor::scalar(-2.0)).item() == 2.0);
    CHECK(norm(Tensor::zeros({0, 3})).item() == 0.0);
    CHECK(std::isnan(norm(Tensor::fromDoubles({2}, {1, std::nan("")})).item()));
}

TEST_CASE("norm rejects integer inputs, p below 1 and bad axes")
{
    CHECK_THROWS_AS(norm(matrix(DType::Int32)), DTypeError);
    CHECK_THROWS_AS(norm(matrix(), {}, 0.5), ValueError);
    CHECK_THROWS_AS(norm(matrix(), {}, std::nan("")), ValueError);
    CHECK_THROWS_WITH(norm(matrix(), {3}), Catch::Contains("'Norm'") && Catch::Contains("axis 3") && Catch::Contains("rank 2"));
}

TEST_CASE("norm's gradient is x / |x| for p = 2 and sign(x) for p = 1")
{
    const Tensor g2 = normGrad(matrix(), {1}, 2.0);
    CHECK(g2.at(0) == Approx(0.6));
    CHECK(g2.at(1) == Approx(-0.8));
    CHECK(g2.at(2) == 0.0);
    CHECK(g2.at(3) == 0.0);
    CHECK(normGrad(matrix(), {1}, 1.0).toDoubles() == std::vector<double>{1, -1, 0, 0});
    // p = 3: sign(x) x^2 / y^2 with y^3 = 91.
    const Tensor g3 = normGrad(matrix(), {1}, 3.0);
    const double y2 = std::pow(91.0, 2.0 / 3.0);
    CHECK(g3.at(0) == Approx(9.0 / y2));
    CHECK(g3.at(1) == Approx(-16.0 / y2));
}

TEST_CASE("norm's gradient at an all-zero slice is 0, not NaN")
{
    for (double p : {1.0, 1.5, 2.0, 3.0}) {
        const Tensor g = normGrad(Tensor::zeros({2, 3}, DType::Float64), {}, p);
        CHECK(g.toDoubles() == std::vector<double>(6, 0.0));
    }
}
