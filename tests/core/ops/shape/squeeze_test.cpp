// Tests of squeeze (core/ops/shape/squeeze.cpp). SPDX-License-Identifier: MIT
#include "ops/ops.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("squeeze drops every axis of size 1 by default, or the listed ones")
{
    const Tensor x = arange({1, 2, 1, 3});
    CHECK(squeeze(x).shape() == Shape{2, 3});
    CHECK(squeeze(x, {2}).shape() == Shape{1, 2, 3});
    CHECK(squeeze(x, {0, -2}).shape() == Shape{2, 3});
    CHECK(squeeze(x).toDoubles() == x.toDoubles());
    CHECK(squeeze(Tensor::scalar(1.0)).shape() == Shape{});
    CHECK(squeeze(Tensor::zeros({1, 1})).shape() == Shape{});
    CHECK(squeeze(Tensor::zeros({0, 1})).shape() == Shape{0});
}

TEST_CASE("squeezing an axis whose size is not 1 is a shape error")
{
    CHECK_THROWS_AS(squeeze(arange({1, 2}), {1}), ShapeError);
    CHECK_THROWS_WITH(squeeze(arange({1, 2}), {1}), Catch::Contains("'Squeeze'") && Catch::Contains("size 2"));
    CHECK_THROWS_AS(squeeze(arange({1, 2}), {2}), ValueError);
    CHECK_THROWS_AS(squeeze(arange({1, 2}), {0, 0}), ValueError);
    CHECK_THROWS_AS(squeeze(Tensor::scalar(1.0), {0}), ValueError);
}
