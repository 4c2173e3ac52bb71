// Tests of getitem (core/ops/shape/getitem.cpp): NumPy indexing semantics worked out by hand.
// SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

namespace {
using I = IndexItem;
const IndexItem all = I::slice({}, {});

Tensor mask(const Shape& shape, const std::vector<double>& v) { return Tensor::fromDoubles(shape, v, DType::Bool); }
} // namespace

// x[i, j] = 4 i + j throughout.
TEST_CASE("getitem with ints drops axes, negative ints count from the end")
{
    const Tensor x = arange({3, 4});
    const Tensor row = getitem(x, {I::integer(1)});
    REQUIRE(row.shape() == Shape{4});
    CHECK(row.toDoubles() == std::vector<double>{4, 5, 6, 7});
    CHECK(getitem(x, {I::integer(-1)}).toDoubles() == std::vector<double>{8, 9, 10, 11});
    const Tensor one = getitem(x, {I::integer(1), I::integer(-2)});
    CHECK(one.shape() == Shape{});
    CHECK(one.item() == 6.0);
    CHECK(getitem(x, {all, I::integer(1)}).toDoubles() == std::vector<double>{1, 5, 9});
}

TEST_CASE("getitem with slices takes Python slice semantics, negative steps included")
{
    const Tensor x = arange({3, 4});
    CHECK(getitem(x, {I::slice({}, {}, -1)}).toDoubles()
          == std::vector<double>{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3});
    const Tensor y = getitem(x, {I::slice(1, {}), I::slice({}, {}, -2)});
    REQUIRE(y.shape() == Shape{2, 2});
    CHECK(y.toDoubles() == std::vector<double>{7, 5, 11, 9});
    CHECK(getitem(x, {all, I::slice(-3, -1)}).toDoubles() == std::vector<double>{1, 2, 5, 6, 9, 10});
    CHECK(getitem(x, {I::slice(10, 20)}).shape() == Shape{0, 4});
    CHECK(getitem(x, {all, I::slice(-100, 2)}).toDoubles() == std::vector<double>{0, 1, 4, 5, 8, 9});
    CHECK(getitem(x, {I::integer(0), I::slice(2, -100, -1)}).toDoubles() == std::vector<double>{2, 1, 0});
}

TEST_CASE("getitem expands an ellipsis and inserts new axes")
{
    const Tensor x = arange({3, 4});
    CHECK(getitem(x, {I::ellipsis(), I::integer(0)}).toDoubles() == std::vector<double>{0, 4, 8});
    CHECK(getitem(x, {I::newAxis(), I::integer(1)}).shape() == Shape{1, 4});
    CHECK(getitem(x, {all, I::newAxis()}).shape() == Shape{3, 1, 4});
    CHECK(getitem(x, {I::ellipsis(), I::newAxis()}).shape() == Shape{3, 4, 1});
    CHECK(getitem(x, {}).toDoubles() == x.toDoubles());
}

TEST_CASE("getitem on 0-D and empty tensors")
{
    const Tensor s = Tensor::scalar(5.0);
    CHECK(getitem(s, {}).item() == 5.0);
    CHECK(getitem(s, {I::ellipsis()}).item() == 5.0);
    CHECK(getitem(s, {I::newAxis()}).shape() == Shape{1});
    CHECK_THROWS_AS(getitem(s, {I::integer(0)}), IndexError);
    const Tensor e = Tensor::zeros({0, 3});
    CHECK(getitem(e, {all, I::integer(1)}).shape() == Shape{0});
    CHECK(getitem(e, {I::index(ints({0}, {}))}).shape() == Shape{0, 3});
    CHECK_THROWS_AS(getitem(e, {I::integer(0)}), IndexError);
}

TEST_CASE("getitem with one integer tensor gathers along its axis")
{
    const Tensor x = arange({3, 4});
    const Tensor rows = getitem(x, {I::index(ints({2}, {2, -3}, DType::Int32))});
    REQUIRE(rows.shape() == Shape{2, 4});
    CHECK(rows.toDoubles() == std::vector<double>{8, 9, 10, 11, 0, 1, 2, 3});
    const Tensor cols = getitem(x, {all, I::index(ints({1, 2}, {0, 3}))});
    REQUIRE(cols.shape() == Shape{3, 1, 2});
    CHECK(cols.toDoubles() == std::vector<double>{0, 3, 4, 7, 8, 11});
}

TEST_CASE("getitem with several integer tensors broadcasts them together")
{
    const Tensor x = arange({3, 4});
    const Tensor pairs = getitem(x, {I::index(ints({2}, {0, 2})), I::index(ints({2}, {1, 3}))});
    CHECK(pairs.toDoubles() == std::vector<double>{1, 11});
    const Tensor grid = getitem(x, {I::index(ints({2, 1}, {0, 2})), I::index(ints({2}, {1, 3}))});
    REQUIRE(grid.shape() == Shape{2, 2});
    CHECK(grid.toDoubles() == std::vector<double>{1, 3, 9, 11});
    CHECK_THROWS_AS(getitem(x, {I::index(ints({2}, {0, 1})), I::index(ints({3}, {0, 1, 2}))}), IndexError);
}

// y[i, j, k] = 12 i + 4 j + k.
TEST_CASE("getitem places broadcast index dimensions where NumPy does")
{
    const Tensor y = arange({2, 3, 4});
    // Adjacent tensor indices: their dimensions replace the indexed axes.
    const Tensor adjacent = getitem(y, {all, I::index(ints({2}, {0, 2})), I::index(ints({2}, {1, 3}))});
    REQUIRE(adjacent.shape() == Shape{2, 2});
    CHECK(adjacent.toDoubles() == std::vector<double>{1, 11, 13, 23});
    // An int and a tensor separated by a slice: the index dimensions go first.
    const Tensor split = getitem(y, {I::integer(0), all, I::index(ints({2}, {1, 2}))});
    REQUIRE(split.shape() == Shape{2, 3});
    CHECK(split.toDoubles() == std::vector<double>{1, 5, 9, 2, 6, 10});
    // An int next to a tensor index is adjacent to it.
    const Tensor next = getitem(y, {all, I::integer(1), I::index(ints({2}, {0, 3}))});
    REQUIRE(next.shape() == Shape{2, 2});
    CHECK(next.toDoubles() == std::vector<double>{4, 7, 16, 19});
}

TEST_CASE("getitem with a Bool mask selects the True positions")
{
    const Tensor x = arange({3, 4});
    const Tensor upper = getitem(x, {I::index(mask({3, 4}, {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1}))});
    REQUIRE(upper.shape() == Shape{6});
    CHECK(upper.toDoubles() == std::vector<double>{6, 7, 8, 9, 10, 11});
    const Tensor rows = getitem(x, {I::index(mask({3}, {1, 0, 1}))});
    REQUIRE(rows.shape() == Shape{2, 4});
    CHECK(rows.toDoubles() == std::vector<double>{0, 1, 2, 3, 8, 9, 10, 11});
    const Tensor cols = getitem(x, {all, I::index(mask({4}, {1, 0, 0, 1}))});
    REQUIRE(cols.shape() == Shape{3, 2});
    CHECK(cols.toDoubles() == std::vector<double>{0, 3, 4, 7, 8, 11});
    CHECK(getitem(x, {I::index(mask({3, 4}, std::vector<double>(12, 0.0)))}).shape() == Shape{0});
}

TEST_CASE("getitem errors name the index, the axis and its size")
{
    const Tensor x = arange({3, 4});
    CHECK_THROWS_WITH(getitem(x, {I::integer(5)}), Catch::Contains("index 5 is out of bounds for axis 0 with size 3"));
    CHECK_THROWS_WITH(getitem(x, {I::integer(0), I::integer(-5)}),
                      Catch::Contains("index -5 is out of bounds for axis 1 with size 4"));
    CHECK_THROWS_WITH(getitem(x, {all, I::index(ints({2}, {0, 4}))}),
                      Catch::Contains("index 4 is out of bounds for axis 1 with size 4"));
    CHECK_THROWS_AS(getitem(x, {I::index(ints({1}, {-4}))}), IndexError);
    CHECK_THROWS_AS(getitem(x, {I::integer(0), I::integer(0), I::integer(0)}), IndexError);
    CHECK_THROWS_AS(getitem(x, {I::ellipsis(), I::ellipsis()}), IndexError);
    CHECK_THROWS_AS(getitem(x, {I::index(mask({4}, {1, 0, 0, 1}))}), IndexError);
    CHECK_THROWS_AS(getitem(x, {I::index(arange({1}))}), IndexError);
    CHECK_THROWS_AS(getitem(x, {I::slice({}, {}, 0)}), ValueError);
}

TEST_CASE("getitem is differentiable through the primitives it is built from")
{
    auto f = [](const std::vector<Value>& v) -> Value {
        const Tensor& x = v[0].tensor();
        const Tensor picked = getitem(x, {I::index(ints({3}, {2, 0, 2})), I::slice({}, {}, -2)});
        const Tensor masked = getitem(x, {I::index(mask({3, 4}, {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}))});
        return reduceSum(picked) + reduceSum(masked * 10.0);
    };
    const Tensor g = grad(f)({arange({3, 4})}).tensor();
    // picked takes columns 3 and 1 of rows 2, 0, 2; masked takes x[0, 0] and x[2, 3].
    CHECK(g.toDoubles() == std::vector<double>{10, 1, 0, 1, 0, 0, 0, 0, 0, 2, 0, 12});
}
