// Tests of gather and unsorted_segment_sum (core/ops/shape/gather.cpp,
// unsorted_segment_sum.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

#include <limits>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("gather picks slices along an axis, the index shape replaces that axis")
{
    const Tensor x = arange({3, 4});
    const Tensor rows = gather(x, ints({2}, {2, 0}, DType::Int32));
    REQUIRE(rows.shape() == Shape{2, 4});
    CHECK(rows.toDoubles() == std::vector<double>{8, 9, 10, 11, 0, 1, 2, 3});
    const Tensor cols = gather(x, ints({2, 2}, {3, 3, 0, 1}), 1);
    REQUIRE(cols.shape() == Shape{3, 2, 2});
    CHECK(cols.toDoubles() == std::vector<double>{3, 3, 0, 1, 7, 7, 4, 5, 11, 11, 8, 9});
    const Tensor one = gather(x, ints({}, {1}), -1);
    REQUIRE(one.shape() == Shape{3});
    CHECK(one.toDoubles() == std::vector<double>{1, 5, 9});
    CHECK(gather(x, ints({0}, {})).shape() == Shape{0, 4});
}

TEST_CASE("gather rejects out-of-range and non-integer indices")
{
    const Tensor x = arange({3, 4});
    CHECK_THROWS_AS(gather(x, ints({1}, {3})), IndexError);
    CHECK_THROWS_WITH(gather(x, ints({2}, {0, 7}), 1), Catch::Contains("'Gather'") && Catch::Contains("index 7"));
    CHECK_THROWS_AS(gather(x, ints({1}, {-1})), IndexError);
    CHECK_THROWS_AS(gather(x, arange({1})), DTypeError);
    CHECK_THROWS_AS(gather(x, ints({1}, {0}), 2), ValueError);
    CHECK_THROWS_AS(gather(Tensor::scalar(1.0), ints({1}, {0})), ValueError);
}

TEST_CASE("gather's gradient adds up over repeated indices")
{
    auto f = [](const std::vector<Value>& v) -> Value {
        return reduceSum(gather(v[0].tensor(), ints({3}, {1, 1, 0}, DType::Int32), 1));
    };
    const Tensor g = grad(f)({arange({2, 3})}).tensor();
    CHECK(g.toDoubles() == std::vector<double>{1, 2, 0, 1, 2, 0});
}

TEST_CASE("unsorted_segment_sum adds rows into their segments, unnamed segments are zero")
{
    const Tensor x = arange({4, 2});
    const Tensor y = unsortedSegmentSum(x, ints({4}, {2, 0, 2, 0}), 4);
    REQUIRE(y.shape() == Shape{4, 2});
    CHECK(y.toDoubles() == std::vector<double>{2 + 6, 3 + 7, 0, 0, 0 + 4, 1 + 5, 0, 0});
    const Tensor z = unsortedSegmentSum(arange({2, 2}, DType::Int32), ints({2, 2}, {1, 1, 0, 1}), 2);
    REQUIRE(z.shape() == Shape{2});
    CHECK(z.toDoubles() == std::vector<double>{2, 0 + 1 + 3});
    CHECK_THROWS_AS(unsortedSegmentSum(x, ints({4}, {0, 1, 2, 4}), 4), IndexError);
    CHECK_THROWS_AS(unsortedSegmentSum(x, ints({3}, {0, 1, 2}), 4), ShapeError);
}

// Found by tests/fuzz in CI: the integer segment sums overflowed a signed type (undefined behaviour
// under UBSan); they wrap around like every integer kernel.
TEST_CASE("unsorted_segment_sum of integers wraps around on overflow")
{
    const std::int32_t big = std::numeric_limits<std::int32_t>::max();
    const Tensor x = Tensor::fromVector<std::int32_t>({3}, {big, 2, big});
    const Tensor y = unsortedSegmentSum(x, ints({3}, {0, 0, 1}), 2);
    REQUIRE(y.dtype() == DType::Int32);
    CHECK(y.data<std::int32_t>()[0] == std::numeric_limits<std::int32_t>::min() + 1);
    CHECK(y.data<std::int32_t>()[1] == big);
}

TEST_CASE("gather refuses an empty tensor whose other dimensions multiply beyond int64")
{
    const std::int64_t huge = std::numeric_limits<std::int64_t>::max();
    const Tensor x = Tensor::zeros(Shape{4, huge, 0});
    const Tensor none = Tensor::fromVector<std::int64_t>(Shape{0}, {});
    CHECK_THROWS_AS(gather(x, none, 2), ShapeError);
}
