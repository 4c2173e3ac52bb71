// Tests of softplus (core/ops/elementwise/softplus.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("softplus of known values, with no overflow for large inputs", "[elementwise]")
{
    checkValues(softplus(f64({3}, {0, 1, -1})),
                {std::log(2.0), std::log1p(std::exp(1.0)), std::log1p(std::exp(-1.0))});
    // float32 exp(100) overflows; the stable form does not.
    checkValues(softplus(f32({4}, {100, INFINITY, -INFINITY, NAN})), {100, kInf, 0, kNaN});
    CHECK(softplus(f64({1}, {-100})).at(0) == Approx(3.720075976020836e-44));
    CHECK_THAT(messageOf<DTypeError>([] { softplus(i32({1}, {0})); }),
               Catch::Contains("'Softplus'"));
}

TEST_CASE("the gradient of softplus is sigmoid", "[elementwise]")
{
    checkValues(gradOfSum([](const Tensor& t) { return softplus(t); }, f64({3}, {0, 2, -200})),
                {0.5, 1 / (1 + std::exp(-2.0)), 0});
}
