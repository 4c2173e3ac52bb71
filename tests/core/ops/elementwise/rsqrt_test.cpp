// Tests of rsqrt (core/ops/elementwise/rsqrt.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("rsqrt of known values: rsqrt(0) = inf, rsqrt(-1) = NaN", "[elementwise]")
{
    checkValues(rsqrt(f32({6}, {4, 0.25f, 0, -1, INFINITY, NAN})), {0.5, 2, kInf, kNaN, 0, kNaN});
    CHECK_THAT(messageOf<DTypeError>([] { rsqrt(i32({1}, {4})); }), Catch::Contains("'Rsqrt'"));
}

TEST_CASE("the gradient of rsqrt is -x^(-3/2) / 2, -inf at 0", "[elementwise]")
{
    checkValues(gradOfSum([](const Tensor& t) { return rsqrt(t); }, f64({3}, {4, 1, 0})),
                {-1.0 / 16, -0.5, -kInf});
}
