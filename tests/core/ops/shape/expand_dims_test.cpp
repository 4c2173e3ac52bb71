// Tests of expand_dims (core/ops/shape/expand_dims.cpp). SPDX-License-Identifier: MIT
#include "ops/ops.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("expand_dims inserts an axis of size 1 at any position from -rank - 1 to rank")
{
    const Tensor x = arange({2, 3});
    CHECK(expandDims(x, 0).shape() == Shape{1, 2, 3});
    CHECK(expandDims(x, 1).shape() == Shape{2, 1, 3});
    CHECK(expandDims(x, 2).shape() == Shape{2, 3, 1});
    CHECK(expandDims(x, -1).shape() == Shape{2, 3, 1});
    CHECK(expandDims(x, -3).shape() == Shape{1, 2, 3});
    CHECK(expandDims(x, 1).toDoubles() == x.toDoubles());
    CHECK(expandDims(Tensor::scalar(2.0), 0).shape() == Shape{1});
    CHECK(expandDims(Tensor::zeros({0}), 0).shape() == Shape{1, 0});
}

TEST_CASE("expand_dims rejects an axis out of range naming the axis and the rank")
{
    CHECK_THROWS_AS(expandDims(arange({2, 3}), 3), ValueError);
    CHECK_THROWS_WITH(expandDims(arange({2, 3}), -4), Catch::Contains("'ExpandDims'") && Catch::Contains("axis -4")
                                                          && Catch::Contains("rank 2"));
}
