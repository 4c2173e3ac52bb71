// Tests of log (core/ops/elementwise/log.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("log of known values: log(0) = -inf, log(-1) = NaN", "[elementwise]")
{
    checkValues(log(f64({3}, {1, std::exp(1.0), 0.5})), {0, 1, std::log(0.5)});
    checkValues(log(f32({5}, {0, -0.0f, -1, INFINITY, NAN})), {-kInf, -kInf, kNaN, kInf, kNaN});
}

TEST_CASE("log rejects integer input", "[elementwise]")
{
    CHECK_THAT(messageOf<DTypeError>([] { log(i64({1}, {3})); }), Catch::Contains("'Log'"));
}

TEST_CASE("the gradient of log is 1/x, infinite at 0", "[elementwise]")
{
    checkValues(gradOfSum([](const Tensor& t) { return log(t); }, f64({3}, {2, 0.25, 0})),
                {0.5, 4, kInf});
}
