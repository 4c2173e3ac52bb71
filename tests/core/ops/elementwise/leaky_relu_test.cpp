// Tests of leaky_relu (core/ops/elementwise/leaky_relu.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("leaky_relu scales negatives by alpha (default 0.2)", "[elementwise]")
{
    checkValues(leakyRelu(f32({5}, {-1, 0, 2, -INFINITY, NAN})), {-0.2, 0, 2, -kInf, kNaN});
    checkValues(leakyRelu(f64({2}, {-3, 3}), 0.01), {-0.03, 3});
    CHECK_THAT(messageOf<DTypeError>([] { leakyRelu(i32({1}, {-1})); }),
               Catch::Contains("'LeakyReLU'"));
}

TEST_CASE("the gradient of leaky_relu is 1 for x > 0 and alpha elsewhere, the kink included",
          "[elementwise]")
{
    checkValues(gradOfSum([](const Tensor& t) { return leakyRelu(t, 0.1); }, f64({3}, {-1, 0, 2})),
                {0.1, 0.1, 1});
}
