// Tests of cast (core/ops/elementwise/cast.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("cast from float to integer truncates and gives the x86 static_cast result out of range",
          "[elementwise]")
{
    // MindSpore's CPU Cast is a static_cast loop: out of range and NaN give the "integer
    // indefinite" value (the minimum) on x86-64.
    const Tensor y = cast(f32({6}, {2.7f, -2.7f, 1e10f, -1e10f, INFINITY, NAN}), DType::Int32);
    CHECK(y.dtype() == DType::Int32);
    constexpr double lo = std::numeric_limits<std::int32_t>::min();
    checkValues(y, {2, -2, lo, lo, lo, lo});
    checkValues(cast(f64({2}, {-INFINITY, 3.5}), DType::Int64),
                {static_cast<double>(std::numeric_limits<std::int64_t>::min()), 3});
}

TEST_CASE("cast to Bool is true for every nonzero value, NaN included", "[elementwise]")
{
    checkValues(cast(f32({4}, {0, -0.0f, 0.5f, NAN}), DType::Bool), {0, 0, 1, 1});
}
