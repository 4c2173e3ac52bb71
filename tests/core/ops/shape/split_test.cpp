// Tests of split and splitSizes (core/ops/shape/split.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

#include <limits>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("split cuts a tensor into equal parts along an axis")
{
    const TensorList parts = split(arange({2, 4}), 1, 2);
    REQUIRE(parts.size() == 2);
    CHECK(parts[0].shape() == Shape{2, 2});
    CHECK(parts[0].toDoubles() == std::vector<double>{0, 1, 4, 5});
    CHECK(parts[1].toDoubles() == std::vector<double>{2, 3, 6, 7});
    const TensorList rows = split(arange({3, 2}, DType::Int64), -2, 3);
    REQUIRE(rows.size() == 3);
    CHECK(rows[2].toDoubles() == std::vector<double>{4, 5});
    CHECK(rows[2].dtype() == DType::Int64);
}

TEST_CASE("splitSizes cuts parts of the given sizes, one -1 is inferred")
{
    const TensorList parts = splitSizes(arange({6}), 0, {1, -1, 2});
    REQUIRE(parts.size() == 3);
    CHECK(parts[0].toDoubles() == std::vector<double>{0});
    CHECK(parts[1].toDoubles() == std::vector<double>{1, 2, 3});
    CHECK(parts[2].toDoubles() == std::vector<double>{4, 5});
    const TensorList empty = splitSizes(arange({2}), 0, {0, 2});
    CHECK(empty[0].shape() == Shape{0});
    CHECK(empty[1].toDoubles() == std::vector<double>{0, 1});
}

TEST_CASE("split rejects sizes that do not add up and bad axes")
{
    CHECK_THROWS_AS(split(arange({5}), 0, 2), ShapeError);
    CHECK_THROWS_AS(split(arange({4}), 0, 0), ValueError);
    CHECK_THROWS_AS(splitSizes(arange({4}), 0, {1, 2}), ShapeError);
    CHECK_THROWS_AS(splitSizes(arange({4}), 0, {-1, -1}), ValueError);
    CHECK_THROWS_AS(splitSizes(arange({4}), 0, {5, -1}), ShapeError);
    CHECK_THROWS_AS(splitSizes(arange({4}), 0, {}), ValueError);
    CHECK_THROWS_WITH(split(arange({4}), 1, 2), Catch::Contains("'Split'") && Catch::Contains("axis 1")
                                                    && Catch::Contains("rank 1"));
    CHECK_THROWS_AS(split(Tensor::scalar(1.0), 0, 1), ValueError);
}

TEST_CASE("an unused part of a split gets a zero gradient")
{
    auto f = [](const std::vector<Value>& v) -> Value {
        const TensorList parts = split(v[0].tensor(), 0, 3);
        return reduceSum(parts[1] * parts[1]);
    };
    const Tensor g = grad(f)({Tensor::fromVector<float>({3}, {1, 2, 3})}).tensor();
    CHECK(g.toDoubles() == std::vector<double>{0, 4, 0});
}

// Found by tests/fuzz: adding a huge size to the running total overflowed (undefined behaviour,
// reported by UBSan in the sanitizer build) before the total was compared with the dimension.
TEST_CASE("split rejects a size too large to add up")
{
    const Tensor x = Tensor::zeros({4});
    const std::int64_t huge = std::numeric_limits<std::int64_t>::max();
    CHECK_THROWS_AS(splitSizes(x, 0, {huge, 4}), ShapeError);
    CHECK_THROWS_AS(splitSizes(x, 0, {4, huge}), ShapeError);
    CHECK_THROWS_AS(splitSizes(x, 0, {-1, huge}), ShapeError);
}

TEST_CASE("split refuses more parts than the axis has elements, even on an empty axis")
{
    const Tensor empty = Tensor::zeros(Shape{2, 0});
    CHECK(split(empty, 1, 1).size() == 1);
    CHECK_THROWS_AS(split(empty, 1, 2), ValueError);
    CHECK_THROWS_AS(split(empty, 1, std::numeric_limits<std::int64_t>::max()), ValueError);
    CHECK_THROWS_AS(split(Tensor::zeros(Shape{4}), 0, 8), ValueError);
}
