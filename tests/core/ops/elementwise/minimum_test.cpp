// Tests of minimum (core/ops/elementwise/minimum.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("minimum takes the smaller element with broadcasting", "[elementwise]")
{
    const Tensor y = minimum(f32({2, 3}, {1, 5, -2, 0, 3, 7}), f32({2, 1}, {2, 4}));
    CHECK(y.shape() == Shape{2, 3});
    checkValues(y, {1, 2, -2, 0, 3, 4});
    checkValues(minimum(f32({2}, {INFINITY, -INFINITY}), Tensor::scalar(1.0)), {1, -kInf});
}

TEST_CASE("minimum returns a NaN operand", "[elementwise]")
{
    checkValues(minimum(f32({2}, {NAN, -1}), f32({2}, {-1, NAN})), {kNaN, kNaN});
}

TEST_CASE("minimum of integers stays integer, bad inputs are rejected", "[elementwise]")
{
    const Tensor y = minimum(i64({3}, {-4, 9, 0}), i64({1}, {1}));
    CHECK(y.dtype() == DType::Int64);
    checkValues(y, {-4, 1, 0});
    CHECK_THROWS_AS(minimum(boolean({1}, {true}), boolean({1}, {false})), DTypeError);
    const std::string msg = messageOf<ShapeError>([] {
        minimum(Tensor::zeros({2, 3}), Tensor::zeros({4}));
    });
    CHECK_THAT(msg,
               Catch::Contains("Minimum") && Catch::Contains("[2, 3]") && Catch::Contains("[4]"));
}

TEST_CASE("the gradient of minimum goes to the smaller input and splits ties half/half",
          "[elementwise]")
{
    const TensorList g = gradsOfSum([](const TensorList& x) { return minimum(x[0], x[1]); },
                                    {f64({3}, {1, 2, 3}), Tensor::scalar(2.0, DType::Float64)});
    checkValues(g[0], {1, 0.5, 0});
    CHECK(g[1].rank() == 0);
    checkValues(g[1], {1.5});
}
