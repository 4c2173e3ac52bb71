// Tests of cos (core/ops/elementwise/cos.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

#include <numbers>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("cos of known values: cos(-inf) = NaN", "[elementwise]")
{
    checkValues(cos(f64({3}, {0, std::numbers::pi, std::numbers::pi / 3})), {1, -1, 0.5});
    checkValues(cos(f32({2}, {-INFINITY, NAN})), {kNaN, kNaN});
    CHECK_THAT(messageOf<DTypeError>([] { cos(i64({1}, {1})); }), Catch::Contains("'Cos'"));
}

TEST_CASE("the derivatives of cos are -sin and -cos", "[elementwise]")
{
    const Tensor x = f64({2}, {0.7, -2.5});
    auto d1 = [](const Tensor& t) { return gradOfSum([](const Tensor& u) { return cos(u); }, t); };
    checkValues(d1(x), {-std::sin(0.7), -std::sin(-2.5)});
    checkValues(gradOfSum(d1, x), {-std::cos(0.7), -std::cos(-2.5)});
}
