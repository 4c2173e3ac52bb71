// Tests of sign (core/ops/elementwise/sign.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("sign is -1, 0 or 1, and NaN for NaN", "[elementwise]")
{
    checkValues(sign(f32({7}, {-2.5f, -0.0f, 0, 3, INFINITY, -INFINITY, NAN})),
                {-1, 0, 0, 1, 1, -1, kNaN});
    const Tensor y = sign(i64({3}, {-7, 0, 9}));
    CHECK(y.dtype() == DType::Int64);
    checkValues(y, {-1, 0, 1});
    CHECK_THAT(messageOf<DTypeError>([] { sign(boolean({1}, {false})); }),
               Catch::Contains("'Sign'"));
}

TEST_CASE("the gradient of sign is zero everywhere, the jump included", "[elementwise]")
{
    const Tensor g =
        gradOfSum([](const Tensor& t) { return sign(t); }, f32({2, 2}, {-1, 0, 2, NAN}));
    CHECK(g.shape() == Shape{2, 2});
    checkValues(g, {0, 0, 0, 0});
}
