// Tests of add (core/ops/elementwise/add.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("add, mul and neg on integers wrap around on overflow", "[elementwise]")
{
    const std::int32_t highest = std::numeric_limits<std::int32_t>::max();
    const std::int32_t lowest = std::numeric_limits<std::int32_t>::min();
    checkValues(add(i32({1}, {highest}), i32({1}, {1})), {lowest});
    checkValues(mul(i32({1}, {65536}), i32({1}, {65536})), {0});
    checkValues(neg(i32({2}, {lowest, 5})), {lowest, -5});
    const std::int64_t lowest64 = std::numeric_limits<std::int64_t>::min();
    CHECK(neg(i64({1}, {lowest64})).data<std::int64_t>()[0] == lowest64);
}

TEST_CASE("add follows IEEE and broadcasts", "[elementwise]")
{
    checkValues(add(f32({2, 2}, {1, 2, INFINITY, NAN}), f32({2}, {10, -INFINITY})),
                {11, -kInf, kInf, kNaN});
}
