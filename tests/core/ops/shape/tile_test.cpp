// Tests of tile (core/ops/shape/tile.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

#include <limits>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("tile repeats a tensor along each axis")
{
    const Tensor x = arange({2, 2});
    const Tensor y = tile(x, {2, 3});
    REQUIRE(y.shape() == Shape{4, 6});
    CHECK(y.toDoubles() == std::vector<double>{0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3,
                                               0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3});
    CHECK(tile(x, {1, 1}).toDoubles() == x.toDoubles());
}

TEST_CASE("tile with more multiples than axes adds leading axes")
{
    const Tensor y = tile(arange({2}, DType::Int32), {2, 2});
    REQUIRE(y.shape() == Shape{2, 4});
    CHECK(y.toDoubles() == std::vector<double>{0, 1, 0, 1, 0, 1, 0, 1});
    CHECK(tile(Tensor::scalar(3.0), {3}).toDoubles() == std::vector<double>{3, 3, 3});
    CHECK(tile(Tensor::scalar(3.0), {}).item() == 3.0);
}

TEST_CASE("tile with a zero multiple or an empty input gives an empty tensor")
{
    CHECK(tile(arange({2}), {0}).shape() == Shape{0});
    CHECK(tile(Tensor::zeros({0, 2}), {2, 2}).shape() == Shape{0, 4});
}

TEST_CASE("tile rejects too few or negative multiples")
{
    CHECK_THROWS_AS(tile(arange({2, 2}), {2}), ValueError);
    CHECK_THROWS_WITH(tile(arange({2}), {-1}), Catch::Contains("'Tile'") && Catch::Contains("-1"));
}

TEST_CASE("tile's gradient sums over the repeats, also for rank 8 with every axis tiled")
{
    auto f = [](const std::vector<Value>& v) -> Value {
        return reduceSum(tile(v[0].tensor(), {2, 1, 3}) * arange({2, 2, 6}));
    };
    const Tensor g = grad(f)({arange({2, 2})}).tensor();
    // g[i, j] = sum over the copies r, s of w[r, i, 2 s + j], with w[r, i, k] = 12 r + 6 i + k.
    CHECK(g.toDoubles() == std::vector<double>{0 + 2 + 4 + 12 + 14 + 16, 1 + 3 + 5 + 13 + 15 + 17,
                                               6 + 8 + 10 + 18 + 20 + 22, 7 + 9 + 11 + 19 + 21 + 23});
    auto h = [](const std::vector<Value>& v) -> Value { return reduceSum(tile(v[0].tensor(), std::vector<std::int64_t>(8, 2))); };
    const Tensor g8 = grad(h)({Tensor::zeros({1, 1, 1, 1, 1, 1, 1, 2})}).tensor();
    CHECK(g8.toDoubles() == std::vector<double>{256, 256});
}

TEST_CASE("tile refuses multiples whose result cannot be counted in int64")
{
    const Tensor x = Tensor::zeros(Shape{3, 2});
    const std::int64_t huge = std::numeric_limits<std::int64_t>::max() / 2;
    CHECK_THROWS_AS(tile(x, {huge, 1}), ShapeError); // 3 * huge overflows one dimension
    CHECK_THROWS_AS(tile(x, {1LL << 40, 1LL << 40}), ShapeError); // each fits, the count does not
    CHECK(tile(x, {0, huge}).numel() == 0);
}

// A longer fuzz run's find, kept as tests/fuzz/corpus/seed-4 (tile-huge-multiples-empty-backward):
// the forward accepted an empty result with huge multiples, and the backward failed counting the
// interleaved (multiple, dim) view of the gradient.
TEST_CASE("tile's gradient of an empty result is zero, also with huge multiples")
{
    const std::int64_t huge = std::numeric_limits<std::int64_t>::max();
    const Tensor x = Tensor::zeros(Shape{1, 1, 1, 1, 1, 1, 0}, DType::Int32);
    const Tensor big = arange({3, 2});
    for (const auto& [input, multiples] :
         std::vector<std::pair<Tensor, std::vector<std::int64_t>>>{{x, {0, 0, 2, huge, huge, huge, 0}},
                                                                   {big, {0, huge / 2}}}) {
        auto f = [&multiples](const std::vector<Value>& v) -> Value {
            return reduceSum(cast(tile(v[0].tensor(), multiples), DType::Float32));
        };
        const Tensor in = cast(input, DType::Float32);
        const Value g = grad(f)(std::vector<Value>{in});
        CHECK(g.tensor().shape() == in.shape());
        CHECK((g.tensor().numel() == 0 || g.tensor().toDoubles() == std::vector<double>(6, 0.0)));
    }
}
