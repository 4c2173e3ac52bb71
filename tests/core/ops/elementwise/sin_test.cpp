// Tests of sin (core/ops/elementwise/sin.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

#include <numbers>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("sin of known values: sin(inf) = NaN", "[elementwise]")
{
    checkValues(sin(f64({3}, {0, std::numbers::pi / 2, -std::numbers::pi / 6})), {0, 1, -0.5});
    checkValues(sin(f32({2}, {INFINITY, NAN})), {kNaN, kNaN});
    CHECK_THAT(messageOf<DTypeError>([] { sin(i32({1}, {1})); }), Catch::Contains("'Sin'"));
}

TEST_CASE("the derivatives of sin cycle through cos, -sin and -cos", "[elementwise]")
{
    const Tensor x = f64({3}, {0.3, -1.2, 2.0});
    auto d1 = [](const Tensor& t) { return gradOfSum([](const Tensor& u) { return sin(u); }, t); };
    auto d2 = [&](const Tensor& t) { return gradOfSum(d1, t); };
    auto d3 = [&](const Tensor& t) { return gradOfSum(d2, t); };
    checkValues(d1(x), {std::cos(0.3), std::cos(-1.2), std::cos(2.0)});
    checkValues(d2(x), {-std::sin(0.3), -std::sin(-1.2), -std::sin(2.0)});
    checkValues(d3(x), {-std::cos(0.3), -std::cos(-1.2), -std::cos(2.0)});
}
