// Tests of abs (core/ops/elementwise/abs.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("abs of floats, including -0, infinities and NaN", "[elementwise]")
{
    const Tensor y = abs(f32({6}, {-2.5f, 3, -0.0f, -INFINITY, INFINITY, NAN}));
    checkValues(y, {2.5, 3, 0, kInf, kInf, kNaN});
    CHECK_FALSE(std::signbit(y.at(2)));
}

TEST_CASE("abs of integers keeps the dtype and wraps the most negative value", "[elementwise]")
{
    const std::int32_t lowest = std::numeric_limits<std::int32_t>::min();
    const Tensor y = abs(i32({4}, {-3, 0, 7, lowest}));
    CHECK(y.dtype() == DType::Int32);
    checkValues(y, {3, 0, 7, lowest});
    checkValues(abs(i64({2}, {-5, 5})), {5, 5});
    CHECK_THAT(messageOf<DTypeError>([] { abs(boolean({1}, {true})); }), Catch::Contains("'Abs'"));
}

TEST_CASE("the gradient of abs is sign(x), and 0 at the kink", "[elementwise]")
{
    checkValues(gradOfSum([](const Tensor& t) { return abs(t); }, f32({3}, {-2, 0, 3})),
                {-1, 0, 1});
}
