// Tests of zeros_like, ones_like and fill (core/ops/shape/zeros_like.cpp, ones_like.cpp,
// fill.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"
#include "ops/registry.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("zeros_like and ones_like keep the shape and dtype")
{
    const Tensor x = arange({2, 3}, DType::Int32);
    const Tensor z = zerosLike(x);
    CHECK(z.shape() == Shape{2, 3});
    CHECK(z.dtype() == DType::Int32);
    CHECK(z.toDoubles() == std::vector<double>(6, 0.0));
    CHECK(onesLike(Tensor::zeros({2}, DType::Bool)).toDoubles() == std::vector<double>{1, 1});
    CHECK(onesLike(Tensor::scalar(5.0)).item() == 1.0);
    CHECK(zerosLike(Tensor::zeros({0, 2})).shape() == Shape{0, 2});
}

TEST_CASE("zeros_like, ones_like and fill are not differentiable and pass no gradient")
{
    for (const char* name : {"ZerosLike", "OnesLike", "Fill"})
        CHECK_FALSE(OpRegistry::instance().get(name).differentiable());
    auto f = [](const std::vector<Value>& v) -> Value { return reduceSum(onesLike(v[0].tensor()) * v[0].tensor()); };
    CHECK(grad(f)({arange({2})}).tensor().toDoubles() == std::vector<double>{1, 1});
}

TEST_CASE("fill runs with no inputs and converts the value to the dtype")
{
    const Tensor y = fill(DType::Int64, {2, 2}, 3.0);
    CHECK(y.shape() == Shape{2, 2});
    CHECK(y.dtype() == DType::Int64);
    CHECK(y.toDoubles() == std::vector<double>(4, 3.0));
    CHECK(fill(DType::Float64, {}, 0.5).item() == 0.5);
    CHECK(fill(DType::Bool, {1}, 2.0).toDoubles() == std::vector<double>{1});
    CHECK(fill(DType::Float32, {0, 3}, 1.0).shape() == Shape{0, 3});
    CHECK(std::isnan(fill(DType::Float32, {1}, std::nan("")).item()));
}

TEST_CASE("fill rejects negative dimensions and values the integer dtype cannot hold")
{
    CHECK_THROWS_AS(fill(DType::Float32, {2, -1}, 0.0), ValueError);
    CHECK_THROWS_AS(fill(DType::Int32, {1}, std::nan("")), ValueError);
    CHECK_THROWS_WITH(fill(DType::Int32, {1}, 3e9), Catch::Contains("'Fill'") && Catch::Contains("Int32"));
}

TEST_CASE("fill inside a differentiated function is a constant")
{
    auto f = [](const std::vector<Value>& v) -> Value { return reduceSum(v[0].tensor() * fill(DType::Float32, {2}, 3.0)); };
    CHECK(grad(f)({arange({2})}).tensor().toDoubles() == std::vector<double>{3, 3});
}
