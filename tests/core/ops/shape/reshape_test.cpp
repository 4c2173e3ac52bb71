// Tests of reshape (core/ops/shape/reshape.cpp). SPDX-License-Identifier: MIT
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <limits>

using namespace gradstep;

// Found by tests/fuzz: the product of the requested dimensions overflowed (undefined behaviour,
// reported by UBSan in the sanitizer build) before it was compared with the element count.
TEST_CASE("reshape rejects a shape whose element count overflows int64")
{
    const std::int64_t huge = std::numeric_limits<std::int64_t>::max();
    const Tensor x = Tensor::zeros({2, 3});
    CHECK_THROWS_AS(reshape(x, {huge, 60227}), ShapeError);
    CHECK_THROWS_AS(reshape(x, {-1, huge, 3}), ShapeError);
    CHECK(reshape(x, {3, -1}).shape() == Shape{3, 2});
}
