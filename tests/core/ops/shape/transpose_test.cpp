// Tests of transpose (core/ops/shape/transpose.cpp). SPDX-License-Identifier: MIT
#include "ops/ops.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("transpose moves input axis perm of a to output axis a")
{
    const Tensor x = arange({2, 3, 4});
    const Tensor y = transpose(x, {2, 0, 1});
    REQUIRE(y.shape() == Shape{4, 2, 3});
    // y[k, i, j] = x[i, j, k] = 12 i + 4 j + k
    CHECK(y.toDoubles() == std::vector<double>{0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21,
                                               2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23});
    CHECK(transpose(x, {-1, 0, 1}).toDoubles() == y.toDoubles());
}

TEST_CASE("transpose with an empty perm reverses the axes")
{
    const Tensor y = transpose(arange({2, 3}, DType::Int32));
    REQUIRE(y.shape() == Shape{3, 2});
    CHECK(y.dtype() == DType::Int32);
    CHECK(y.toDoubles() == std::vector<double>{0, 3, 1, 4, 2, 5});
}

TEST_CASE("transpose handles 0-D and empty tensors")
{
    CHECK(transpose(Tensor::scalar(7.0)).item() == 7.0);
    const Tensor y = transpose(Tensor::zeros({0, 3}), {1, 0});
    CHECK(y.shape() == Shape{3, 0});
}

TEST_CASE("transpose rejects a perm that is not a permutation of the axes")
{
    const Tensor x = arange({2, 3});
    CHECK_THROWS_AS(transpose(x, {0}), ValueError);
    CHECK_THROWS_AS(transpose(x, {0, 0}), ValueError);
    CHECK_THROWS_WITH(transpose(x, {0, 2}), Catch::Contains("'Transpose'") && Catch::Contains("axis 2")
                                                 && Catch::Contains("rank 2"));
}
