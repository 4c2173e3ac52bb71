// Tests of erf (core/ops/elementwise/erf.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("erf of known values and its limits", "[elementwise]")
{
    checkValues(erf(f64({3}, {0, 1, -1})), {0, 0.8427007929497149, -0.8427007929497149});
    checkValues(erf(f32({3}, {INFINITY, -INFINITY, NAN})), {1, -1, kNaN});
    CHECK_THAT(messageOf<DTypeError>([] { erf(i32({1}, {1})); }), Catch::Contains("'Erf'"));
}

TEST_CASE("the gradient of erf is 2/sqrt(pi) exp(-x^2)", "[elementwise]")
{
    const double scale = 1.1283791670955126;
    checkValues(gradOfSum([](const Tensor& t) { return erf(t); }, f64({3}, {0, 1, 40})),
                {scale, scale * std::exp(-1.0), 0});
}
