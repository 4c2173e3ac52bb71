// Tests of stack (core/ops/shape/stack.cpp). SPDX-License-Identifier: MIT
#include "ops/ops.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("stack joins equal tensors along a new axis")
{
    const Tensor a = arange({2, 2});
    const Tensor b = Tensor::fromVector<float>({2, 2}, {10, 11, 12, 13});
    const Tensor y0 = stack({a, b}, 0);
    REQUIRE(y0.shape() == Shape{2, 2, 2});
    CHECK(y0.toDoubles() == std::vector<double>{0, 1, 2, 3, 10, 11, 12, 13});
    const Tensor y2 = stack({a, b}, -1);
    REQUIRE(y2.shape() == Shape{2, 2, 2});
    CHECK(y2.toDoubles() == std::vector<double>{0, 10, 1, 11, 2, 12, 3, 13});
    const Tensor y1 = stack({a, b, a}, 1);
    REQUIRE(y1.shape() == Shape{2, 3, 2});
    CHECK(y1.toDoubles() == std::vector<double>{0, 1, 10, 11, 0, 1, 2, 3, 12, 13, 2, 3});
}

TEST_CASE("stack of 0-D tensors is a vector, of empty tensors an empty tensor")
{
    const Tensor y = stack({Tensor::scalar(1.0), Tensor::scalar(2.0)});
    CHECK(y.shape() == Shape{2});
    CHECK(y.toDoubles() == std::vector<double>{1, 2});
    CHECK(stack({Tensor::zeros({0}), Tensor::zeros({0})}, 1).shape() == Shape{0, 2});
}

TEST_CASE("stack rejects different shapes, dtypes and bad axes")
{
    const Tensor a = arange({2});
    CHECK_THROWS_AS(stack({a, arange({3})}), ShapeError);
    CHECK_THROWS_AS(stack({a, arange({2}, DType::Int32)}), DTypeError);
    CHECK_THROWS_WITH(stack({a, a}, 2), Catch::Contains("'Stack'") && Catch::Contains("axis 2") && Catch::Contains("rank 1"));
}
