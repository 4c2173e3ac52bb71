// Tests of div / RealDiv (core/ops/elementwise/div.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("div divides elementwise with broadcasting", "[elementwise]")
{
    const Tensor y = div(f32({2, 2}, {1, 2, 3, 4}), f32({2}, {2, 4}));
    CHECK(y.shape() == Shape{2, 2});
    checkValues(y, {0.5, 0.5, 1.5, 1});
    checkValues(f32({2}, {1, 3}) / 2.0, {0.5, 1.5});
    checkValues(1.0 / f32({2}, {4, -0.5f}), {0.25, -2});
}

TEST_CASE("div by zero gives signed infinity, and 0 / 0 gives NaN", "[elementwise]")
{
    checkValues(div(f32({4}, {1, -1, 0, NAN}), f32({4}, {0, 0, 0, 1})), {kInf, -kInf, kNaN, kNaN});
}

TEST_CASE("div is true division: an integer meets a float, two integers are rejected",
          "[elementwise]")
{
    const Tensor y = div(i32({2}, {7, -7}), f32({1}, {2}));
    CHECK(y.dtype() == DType::Float32);
    checkValues(y, {3.5, -3.5});
    const std::string msg = messageOf<DTypeError>([] { div(i32({2}, {7, 8}), i32({1}, {2})); });
    CHECK_THAT(msg, Catch::Contains("'RealDiv'") && Catch::Contains("Int32"));
}

TEST_CASE("div rejects shapes that do not broadcast", "[elementwise]")
{
    const std::string msg = messageOf<ShapeError>([] {
        div(Tensor::zeros({2, 3}), Tensor::zeros({4}));
    });
    CHECK_THAT(msg,
               Catch::Contains("RealDiv") && Catch::Contains("[2, 3]") && Catch::Contains("[4]"));
}

TEST_CASE("the gradient of a / b is 1/b and -a/b^2", "[elementwise]")
{
    const TensorList g = gradsOfSum([](const TensorList& x) { return div(x[0], x[1]); },
                                    {f64({2, 2}, {1, 2, 3, 4}), f64({2}, {2, 4})});
    checkValues(g[0], {0.5, 0.25, 0.5, 0.25});
    checkValues(g[1], {-(1.0 + 3.0) / 4, -(2.0 + 4.0) / 16});
}

TEST_CASE("the gradient of div at a zero denominator is infinite", "[elementwise]")
{
    const TensorList g = gradsOfSum([](const TensorList& x) { return div(x[0], x[1]); },
                                    {f32({1}, {1}), f32({1}, {0})});
    checkValues(g[0], {kInf});
    checkValues(g[1], {-kInf});
}
