// Tests of maximum (core/ops/elementwise/maximum.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("maximum takes the larger element with broadcasting", "[elementwise]")
{
    const Tensor y = maximum(f32({2, 3}, {1, 5, -2, 0, 3, 7}), f32({3}, {2, 2, 2}));
    CHECK(y.shape() == Shape{2, 3});
    checkValues(y, {2, 5, 2, 2, 3, 7});
    checkValues(maximum(Tensor::scalar(0.0), f32({3}, {-1, 0.5f, -INFINITY})), {0, 0.5, 0});
}

TEST_CASE("maximum returns a NaN operand", "[elementwise]")
{
    checkValues(maximum(f32({3}, {NAN, 1, NAN}), f32({3}, {1, NAN, NAN})), {kNaN, kNaN, kNaN});
}

TEST_CASE("maximum of integers stays integer, two Bool inputs are rejected", "[elementwise]")
{
    const Tensor y = maximum(i32({3}, {-4, 9, 0}), i32({1}, {1}));
    CHECK(y.dtype() == DType::Int32);
    checkValues(y, {1, 9, 1});
    CHECK(maximum(i32({1}, {1}), f64({1}, {0.5})).dtype() == DType::Float64);
    CHECK_THAT(messageOf<DTypeError>([] { maximum(boolean({1}, {true}), boolean({1}, {false})); }),
               Catch::Contains("'Maximum'"));
    const std::string msg = messageOf<ShapeError>([] {
        maximum(Tensor::zeros({2, 3}), Tensor::zeros({4}));
    });
    CHECK_THAT(msg,
               Catch::Contains("Maximum") && Catch::Contains("[2, 3]") && Catch::Contains("[4]"));
}

TEST_CASE("the gradient of maximum goes to the larger input and splits ties half/half",
          "[elementwise]")
{
    const TensorList g = gradsOfSum([](const TensorList& x) { return maximum(x[0], x[1]); },
                                    {f32({2, 3}, {1, 5, 2, 0, 3, 7}), f32({3}, {2, 2, 2})});
    checkValues(g[0], {0, 1, 0.5, 0, 1, 1});
    checkValues(g[1], {2, 0, 0.5});
}
