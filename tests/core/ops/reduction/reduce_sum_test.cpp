// Tests of reduce_sum (core/ops/reduction/reduce_sum.cpp). SPDX-License-Identifier: MIT
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <limits>

using namespace gradstep;

// Found by tests/fuzz: the integer sum overflowed a signed type (undefined behaviour, reported by
// UBSan in the sanitizer build); it wraps around like the elementwise integer kernels.
TEST_CASE("reduce_sum of integers wraps around on overflow")
{
    const std::int64_t big = std::numeric_limits<std::int64_t>::max();
    const Tensor x64 = Tensor::fromVector<std::int64_t>({2}, {4, big});
    CHECK(reduceSum(x64).data<std::int64_t>()[0] == std::numeric_limits<std::int64_t>::min() + 3);
    const Tensor x32 = Tensor::fromVector<std::int32_t>({3}, {std::numeric_limits<std::int32_t>::max(), 1, 1});
    CHECK(reduceSum(x32).data<std::int32_t>()[0] == std::numeric_limits<std::int32_t>::min() + 1);
}
