// Tests of reduce_max and reduce_min (core/ops/reduction/reduce_max.cpp, reduce_min.cpp).
// SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

namespace {
// [[3, -1, 7], [2, 9, 0]]
Tensor matrix(DType dtype = DType::Float32) { return Tensor::fromDoubles({2, 3}, {3, -1, 7, 2, 9, 0}, dtype); }

Tensor gradOf(Tensor (*reduce)(const Tensor&, std::vector<std::int64_t>, bool), const Tensor& x,
              std::vector<std::int64_t> axis)
{
    auto f = [&](const std::vector<Value>& v) -> Value { return reduceSum(reduce(v[0].tensor(), axis, false)); };
    return grad(f)({x}).tensor();
}
} // namespace

TEST_CASE("reduce_max and reduce_min over the given axes or all of them")
{
    CHECK(reduceMax(matrix()).item() == 9.0);
    CHECK(reduceMin(matrix()).item() == -1.0);
    CHECK(reduceMax(matrix(), {0}).toDoubles() == std::vector<double>{3, 9, 7});
    CHECK(reduceMin(matrix(), {1}).toDoubles() == std::vector<double>{-1, 0});
    CHECK(reduceMax(matrix(), {-1}, true).shape() == Shape{2, 1});
    CHECK(reduceMax(Tensor::scalar(-2.0)).item() == -2.0);
    CHECK(reduceMin(Tensor::scalar(-2.0), {-1}).item() == -2.0);
}

TEST_CASE("reduce_max and reduce_min keep integer dtypes")
{
    const Tensor y = reduceMax(matrix(DType::Int32), {1});
    CHECK(y.dtype() == DType::Int32);
    CHECK(y.toDoubles() == std::vector<double>{7, 9});
    CHECK(reduceMin(matrix(DType::Int64)).item() == -1.0);
}

TEST_CASE("reduce_max and reduce_min let NaN win and handle infinities")
{
    const double inf = std::numeric_limits<double>::infinity();
    const Tensor x = Tensor::fromDoubles({2, 2}, {1, std::nan(""), -inf, -inf});
    const Tensor mx = reduceMax(x, {1});
    CHECK(std::isnan(mx.at(0)));
    CHECK(mx.at(1) == -inf);
    CHECK(std::isnan(reduceMin(Tensor::fromDoubles({3}, {std::nan(""), 1, 0})).item()));
}

TEST_CASE("reduce_max of an empty axis is a value error, an empty result is fine")
{
    CHECK_THROWS_AS(reduceMax(Tensor::zeros({0})), ValueError);
    CHECK_THROWS_WITH(reduceMin(Tensor::zeros({2, 0}), {1}), Catch::Contains("'ReduceMin'") && Catch::Contains("empty"));
    CHECK(reduceMax(Tensor::zeros({0, 3}), {1}).shape() == Shape{0});
    CHECK_THROWS_AS(reduceMax(Tensor::zeros({2}, DType::Bool)), DTypeError);
    CHECK_THROWS_WITH(reduceMax(matrix(), {2}), Catch::Contains("'ReduceMax'") && Catch::Contains("axis 2")
                                                    && Catch::Contains("rank 2"));
}

TEST_CASE("the gradient of reduce_max goes to the maximum")
{
    CHECK(gradOf(reduceMax, matrix(), {1}).toDoubles() == std::vector<double>{0, 0, 1, 0, 1, 0});
    CHECK(gradOf(reduceMin, matrix(), {0}).toDoubles() == std::vector<double>{0, 1, 0, 1, 0, 1});
}

TEST_CASE("at a tie the gradient of reduce_max and reduce_min is split evenly")
{
    const Tensor x = Tensor::fromDoubles({2, 4}, {5, 1, 5, 5, 2, 2, 3, 3}, DType::Float64);
    CHECK(gradOf(reduceMax, x, {1}).toDoubles() == std::vector<double>{1.0 / 3, 0, 1.0 / 3, 1.0 / 3, 0, 0, 0.5, 0.5});
    CHECK(gradOf(reduceMin, x, {1}).toDoubles() == std::vector<double>{0, 1, 0, 0, 0.5, 0.5, 0, 0});
    CHECK(gradOf(reduceMax, x, {}).toDoubles() == std::vector<double>{1.0 / 3, 0, 1.0 / 3, 1.0 / 3, 0, 0, 0, 0});
}
