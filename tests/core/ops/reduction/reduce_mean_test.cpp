// Tests of reduce_mean (core/ops/reduction/reduce_mean.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace gradstep;

namespace {
// x[i, j] = 3 i + j + 1: [[1, 2, 3], [4, 5, 6]].
Tensor matrix(DType dtype = DType::Float32)
{
    return Tensor::fromDoubles({2, 3}, {1, 2, 3, 4, 5, 6}, dtype);
}
} // namespace

TEST_CASE("reduce_mean averages over the given axes or all of them")
{
    CHECK(reduceMean(matrix()).item() == 3.5);
    CHECK(reduceMean(matrix(), {0}).toDoubles() == std::vector<double>{2.5, 3.5, 4.5});
    CHECK(reduceMean(matrix(DType::Float64), {-1}).toDoubles() == std::vector<double>{2, 5});
    const Tensor kept = reduceMean(matrix(), {1}, true);
    CHECK(kept.shape() == Shape{2, 1});
    CHECK(reduceMean(matrix(), {0, 1}, true).shape() == Shape{1, 1});
    CHECK(reduceMean(Tensor::scalar(4.0)).item() == 4.0);
    CHECK(reduceMean(Tensor::scalar(4.0), {0}).item() == 4.0);
}

TEST_CASE("reduce_mean of an empty reduction is NaN, of an empty result is empty")
{
    CHECK(std::isnan(reduceMean(Tensor::zeros({0, 3})).item()));
    CHECK(reduceMean(Tensor::zeros({0, 3}), {1}).shape() == Shape{0});
    const Tensor nan = reduceMean(Tensor::zeros({2, 0}), {1});
    CHECK(std::isnan(nan.at(0)));
}

TEST_CASE("reduce_mean propagates NaN and Inf")
{
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(std::isnan(reduceMean(Tensor::fromDoubles({2}, {1, std::nan("")})).item()));
    CHECK(reduceMean(Tensor::fromDoubles({2}, {1, inf})).item() == inf);
}

TEST_CASE("reduce_mean rejects integer inputs and bad axes")
{
    CHECK_THROWS_AS(reduceMean(matrix(DType::Int32)), DTypeError);
    CHECK_THROWS_WITH(reduceMean(matrix(DType::Int64)), Catch::Contains("'ReduceMean'") && Catch::Contains("Int64"));
    CHECK_THROWS_AS(reduceMean(matrix(), {2}), ValueError);
    CHECK_THROWS_WITH(reduceMean(matrix(), {-3}), Catch::Contains("'ReduceMean'") && Catch::Contains("axis -3")
                                                      && Catch::Contains("rank 2"));
}

TEST_CASE("a repeated reduce axis reduces once, as MindSpore dedupes the axes")
{
    const Tensor x = Tensor::fromDoubles({2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, DType::Float64);
    CHECK(reduceMean(matrix(), {1, -1}).toDoubles() == std::vector<double>{2, 5});
    const Tensor m = reduceMean(x, {0, 1, -2});
    CHECK(m.shape() == Shape{2});
    CHECK(m.toDoubles() == reduceMean(x, {0, 1}).toDoubles());
    CHECK(reduceSum(x, {2, -1, 2}, true).shape() == Shape{2, 3, 1});
    auto f = [](const std::vector<Value>& v) -> Value { return reduceSum(reduceMean(v[0].tensor(), {0, 1, -2})); };
    CHECK(grad(f)({x}).tensor().toDoubles() == std::vector<double>(12, 1.0 / 6.0));
}

TEST_CASE("reduce_mean's gradient is 1/n over each reduced slice")
{
    auto f = [](const std::vector<Value>& v) -> Value { return reduceSum(reduceMean(v[0].tensor(), {1})); };
    CHECK(grad(f)({matrix(DType::Float64)}).tensor().toDoubles() == std::vector<double>(6, 1.0 / 3.0));
    auto empty = [](const std::vector<Value>& v) -> Value { return reduceSum(reduceMean(v[0].tensor(), {1})); };
    CHECK(grad(empty)({Tensor::zeros({0, 3})}).tensor().shape() == Shape{0, 3});
}
