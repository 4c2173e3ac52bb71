// Tests of one_hot (core/ops/shape/one_hot.cpp). SPDX-License-Identifier: MIT
#include "ops/ops.h"
#include "ops/registry.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("one_hot puts on_value at each index along a new last axis")
{
    const Tensor y = oneHot(ints({3}, {0, 2, 1}, DType::Int32), 3);
    REQUIRE(y.shape() == Shape{3, 3});
    CHECK(y.dtype() == DType::Float32);
    CHECK(y.toDoubles() == std::vector<double>{1, 0, 0, 0, 0, 1, 0, 1, 0});
}

TEST_CASE("one_hot honours on/off values, axis and dtype")
{
    const Tensor y = oneHot(ints({2}, {1, 0}), 3, 5.0, -1.0, 0, DType::Int64);
    REQUIRE(y.shape() == Shape{3, 2});
    CHECK(y.dtype() == DType::Int64);
    CHECK(y.toDoubles() == std::vector<double>{-1, 5, 5, -1, -1, -1});
    const Tensor z = oneHot(ints({2, 2}, {0, 1, 1, 0}), 2, 1.0, 0.0, 1);
    REQUIRE(z.shape() == Shape{2, 2, 2});
    // z[i, d, j] = (idx[i, j] == d)
    CHECK(z.toDoubles() == std::vector<double>{1, 0, 0, 1, 0, 1, 1, 0});
    CHECK(oneHot(ints({}, {1}), 2).toDoubles() == std::vector<double>{0, 1});
}

TEST_CASE("one_hot gives a row of off_value for indices below 0 or at least depth")
{
    const Tensor y = oneHot(ints({2}, {-1, 3}), 3);
    CHECK(y.toDoubles() == std::vector<double>{0, 0, 0, 0, 0, 0});
    CHECK(oneHot(ints({0}, {}), 4).shape() == Shape{0, 4});
}

TEST_CASE("one_hot rejects float indices, negative depth, bad axes and unrepresentable values")
{
    CHECK_THROWS_AS(oneHot(arange({2}), 2), DTypeError);
    CHECK_THROWS_AS(oneHot(ints({2}, {0, 1}), -1), ValueError);
    CHECK_THROWS_AS(oneHot(ints({2}, {0, 1}), 2, 1.0, 0.0, 2), ValueError);
    CHECK_THROWS_AS(oneHot(ints({2}, {0, 1}), 2, 1e20, 0.0, -1, DType::Int32), ValueError);
}

TEST_CASE("one_hot is registered as not differentiable")
{
    CHECK_FALSE(OpRegistry::instance().get("OneHot").differentiable());
}
