// Tests of sqrt (core/ops/elementwise/sqrt.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("sqrt of known values: sqrt(-1) = NaN", "[elementwise]")
{
    checkValues(sqrt(f32({6}, {4, 0, 2, -1, INFINITY, NAN})),
                {2, 0, std::sqrt(2.0), kNaN, kInf, kNaN});
    CHECK_THAT(messageOf<DTypeError>([] { sqrt(i32({1}, {4})); }), Catch::Contains("'Sqrt'"));
}

TEST_CASE("the gradient of sqrt is 1/(2 sqrt x), infinite at 0", "[elementwise]")
{
    checkValues(gradOfSum([](const Tensor& t) { return sqrt(t); }, f64({3}, {4, 0.25, 0})),
                {0.25, 1, kInf});
    // d2/dx2 sqrt(x) = -x^(-3/2) / 4
    const Tensor second = gradOfSum(
        [](const Tensor& t) { return gradOfSum([](const Tensor& u) { return sqrt(u); }, t); },
        f64({1}, {4}));
    checkValues(second, {-1.0 / 32});
}
