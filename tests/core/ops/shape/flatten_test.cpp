// Tests of flatten (core/ops/shape/flatten.cpp). SPDX-License-Identifier: MIT
#include "ops/ops.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("flatten keeps the first axis and merges the rest")
{
    const Tensor x = arange({2, 3, 4});
    const Tensor y = flatten(x);
    CHECK(y.shape() == Shape{2, 12});
    CHECK(y.toDoubles() == x.toDoubles());
    CHECK(flatten(arange({5})).shape() == Shape{5, 1});
    CHECK(flatten(Tensor::zeros({0, 3, 2})).shape() == Shape{0, 6});
    CHECK(flatten(Tensor::zeros({2, 0, 2})).shape() == Shape{2, 0});
}

TEST_CASE("flatten of a 0-D tensor is a shape error")
{
    CHECK_THROWS_AS(flatten(Tensor::scalar(1.0)), ShapeError);
}
