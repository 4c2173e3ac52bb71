// Tests of cast (core/ops/elementwise/cast.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("cast from float to integer truncates, saturates out of range and maps NaN to 0",
          "[elementwise]")
{
    const Tensor y = cast(f32({6}, {2.7f, -2.7f, 1e10f, -1e10f, INFINITY, NAN}), DType::Int32);
    CHECK(y.dtype() == DType::Int32);
    checkValues(y, {2, -2, std::numeric_limits<std::int32_t>::max(),
                    std::numeric_limits<std::int32_t>::min(),
                    std::numeric_limits<std::int32_t>::max(), 0});
    checkValues(cast(f64({2}, {-INFINITY, 3.5}), DType::Int64),
                {static_cast<double>(std::numeric_limits<std::int64_t>::min()), 3});
}

TEST_CASE("cast to Bool is true for every nonzero value, NaN included", "[elementwise]")
{
    checkValues(cast(f32({4}, {0, -0.0f, 0.5f, NAN}), DType::Bool), {0, 0, 1, 1});
}
