// Tests of select (core/ops/elementwise/select.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("select picks x where the condition holds, y elsewhere, with broadcasting",
          "[elementwise]")
{
    const Tensor c = boolean({2, 3}, {true, false, true, false, false, true});
    const Tensor y = select(c, f32({3}, {1, 2, 3}), f32({2, 1}, {-1, -2}));
    CHECK(y.shape() == Shape{2, 3});
    checkValues(y, {1, -1, 3, -2, -2, 3});
    checkValues(select(boolean({}, {true}), f32({2}, {NAN, 1}), Tensor::scalar(0.0)), {kNaN, 1});
}

TEST_CASE("select promotes x and y and keeps integers", "[elementwise]")
{
    const Tensor c = boolean({2}, {true, false});
    const Tensor yi = select(c, i32({2}, {1, 2}), i32({2}, {3, 4}));
    CHECK(yi.dtype() == DType::Int32);
    checkValues(yi, {1, 4});
    CHECK(select(c, i32({2}, {1, 2}), f64({2}, {3, 4})).dtype() == DType::Float64);
}

TEST_CASE("select needs a Bool condition and broadcastable shapes", "[elementwise]")
{
    CHECK_THAT(messageOf<DTypeError>([] {
                   select(f32({2}, {1, 0}), f32({2}, {1, 2}), f32({2}, {3, 4}));
               }),
               Catch::Contains("'Select'") && Catch::Contains("Bool")
                   && Catch::Contains("Float32"));
    const std::string msg = messageOf<ShapeError>([] {
        select(boolean({2}, {true, false}), Tensor::zeros({2, 3}), Tensor::zeros({4}));
    });
    CHECK_THAT(msg,
               Catch::Contains("'Select'") && Catch::Contains("[2, 3]") && Catch::Contains("[4]"));
}

TEST_CASE("the gradient of select is routed by the mask and summed over broadcast axes",
          "[elementwise]")
{
    const Tensor c = boolean({2, 3}, {true, false, true, false, false, true});
    const TensorList g = gradsOfSum([&](const TensorList& x) { return select(c, x[0], x[1]); },
                                    {f32({3}, {1, 2, 3}), f32({2, 1}, {-1, -2})});
    checkValues(g[0], {1, 0, 2});
    checkValues(g[1], {1, 2});
}

TEST_CASE("select does not leak an infinite gradient into the unchosen input", "[elementwise]")
{
    const Tensor c = boolean({2}, {true, false});
    const TensorList g = gradsOfSum(
        [&](const TensorList& x) {
            return select(c, x[0], x[1]) * f32({2}, {INFINITY, 1});
        },
        {f32({2}, {1, 2}), f32({2}, {3, 4})});
    checkValues(g[0], {kInf, 0});
    checkValues(g[1], {0, 1});
}
