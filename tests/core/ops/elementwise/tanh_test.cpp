// Tests of tanh (core/ops/elementwise/tanh.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("tanh of known values and its limits", "[elementwise]")
{
    checkValues(tanh(f64({3}, {0, 1, -1})), {0, 0.7615941559557649, -0.7615941559557649});
    checkValues(tanh(f32({4}, {INFINITY, -INFINITY, 50, NAN})), {1, -1, 1, kNaN});
    CHECK_THAT(messageOf<DTypeError>([] { tanh(i32({1}, {0})); }), Catch::Contains("'Tanh'"));
}

TEST_CASE("the gradient of tanh is 1 - y^2, and its second derivative -2 y (1 - y^2)",
          "[elementwise]")
{
    const double t1 = std::tanh(1.0);
    checkValues(gradOfSum([](const Tensor& t) { return tanh(t); }, f64({3}, {0, 1, INFINITY})),
                {1, 1 - t1 * t1, 0});
    auto d1 = [](const Tensor& t) { return gradOfSum([](const Tensor& u) { return tanh(u); }, t); };
    checkValues(gradOfSum(d1, f64({2}, {0, 1})), {0, -2 * t1 * (1 - t1 * t1)});
}
