// Tests of strided_slice and strided_slice_grad (core/ops/shape/strided_slice.cpp,
// strided_slice_grad.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("strided_slice takes begin, begin + stride, ... before end on every axis")
{
    const Tensor x = arange({4, 5});
    const Tensor y = stridedSlice(x, {1, 0}, {4, 5}, {2, 2});
    REQUIRE(y.shape() == Shape{2, 3});
    CHECK(y.toDoubles() == std::vector<double>{5, 7, 9, 15, 17, 19});
    CHECK(stridedSlice(x, {0, 1}, {4, 5}, {3, 3}).toDoubles() == std::vector<double>{1, 4, 16, 19});
}

TEST_CASE("strided_slice with negative strides walks backwards, end -1 runs through index 0")
{
    const Tensor x = arange({6});
    CHECK(stridedSlice(x, {5}, {-1}, {-1}).toDoubles() == std::vector<double>{5, 4, 3, 2, 1, 0});
    CHECK(stridedSlice(x, {4}, {0}, {-2}).toDoubles() == std::vector<double>{4, 2});
    CHECK(stridedSlice(x, {5}, {-1}, {-4}).toDoubles() == std::vector<double>{5, 1});
    const Tensor m = arange({2, 3});
    CHECK(stridedSlice(m, {1, 2}, {-1, -1}, {-1, -1}).toDoubles() == std::vector<double>{5, 4, 3, 2, 1, 0});
}

TEST_CASE("strided_slice gives empty results for empty ranges and handles 0-D and empty inputs")
{
    const Tensor x = arange({4});
    CHECK(stridedSlice(x, {3}, {1}, {1}).shape() == Shape{0});
    CHECK(stridedSlice(x, {1}, {3}, {-1}).shape() == Shape{0});
    CHECK(stridedSlice(x, {4}, {4}, {1}).shape() == Shape{0});
    CHECK(stridedSlice(x, {-1}, {-1}, {-1}).shape() == Shape{0});
    CHECK(stridedSlice(Tensor::scalar(3.0), {}, {}, {}).item() == 3.0);
    CHECK(stridedSlice(Tensor::zeros({0, 2}), {0, 0}, {0, 2}, {1, 1}).shape() == Shape{0, 2});
}

TEST_CASE("strided_slice rejects unnormalised bounds, zero strides and wrong attribute lengths")
{
    const Tensor x = arange({4});
    CHECK_THROWS_AS(stridedSlice(x, {0}, {5}, {1}), ValueError);
    CHECK_THROWS_AS(stridedSlice(x, {-1}, {2}, {1}), ValueError);
    CHECK_THROWS_AS(stridedSlice(x, {4}, {0}, {-1}), ValueError);
    CHECK_THROWS_AS(stridedSlice(x, {0}, {4}, {0}), ValueError);
    CHECK_THROWS_WITH(stridedSlice(x, {0, 0}, {4, 4}, {1, 1}), Catch::Contains("'StridedSlice'"));
}

TEST_CASE("strided_slice_grad scatters the gradient into zeros at the sliced positions")
{
    const Tensor dy = Tensor::fromVector<float>({2}, {7, 8});
    CHECK(stridedSliceGrad(dy, {5}, {4}, {0}, {-3}).toDoubles() == std::vector<double>{0, 8, 0, 0, 7});
    CHECK_THROWS_AS(stridedSliceGrad(dy, {5}, {0}, {5}, {1}), ShapeError);
}

TEST_CASE("the gradient of strided_slice is zero outside the slice")
{
    auto f = [](const std::vector<Value>& v) -> Value {
        const Tensor y = stridedSlice(v[0].tensor(), {0, 2}, {2, -1}, {1, -2});
        return reduceSum(y * Tensor::fromVector<float>({2, 2}, {1, 2, 3, 4}));
    };
    const Tensor g = grad(f)({arange({2, 3})}).tensor();
    CHECK(g.toDoubles() == std::vector<double>{2, 0, 1, 4, 0, 3});
}
