// Tests of concat (core/ops/shape/concat.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"
#include "tests/core/ops/shape/shape_test_helpers.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("concat joins tensors along an axis")
{
    const Tensor a = arange({2, 2});
    const Tensor b = Tensor::fromVector<float>({2, 1}, {10, 11});
    const Tensor y = concat({a, b}, 1);
    REQUIRE(y.shape() == Shape{2, 3});
    CHECK(y.toDoubles() == std::vector<double>{0, 1, 10, 2, 3, 11});
    const Tensor z = concat({a, a, a}, -2);
    REQUIRE(z.shape() == Shape{6, 2});
    CHECK(z.at(5) == 1.0);
    CHECK(concat({a}).toDoubles() == a.toDoubles());
}

TEST_CASE("concat accepts empty parts and integer tensors")
{
    const Tensor y = concat({Tensor::zeros({0, 2}, DType::Int32), arange({1, 2}, DType::Int32)}, 0);
    CHECK(y.shape() == Shape{1, 2});
    CHECK(y.dtype() == DType::Int32);
    CHECK(y.toDoubles() == std::vector<double>{0, 1});
}

TEST_CASE("concat rejects mismatched shapes, dtypes and axes")
{
    const Tensor a = arange({2, 2});
    CHECK_THROWS_AS(concat({a, arange({3, 3})}, 1), ShapeError);
    CHECK_THROWS_AS(concat({a, arange({2, 2, 1})}, 1), ShapeError);
    CHECK_THROWS_AS(concat({a, arange({2, 2}, DType::Float64)}, 0), DTypeError);
    CHECK_THROWS_WITH(concat({a, a}, 2), Catch::Contains("'Concat'") && Catch::Contains("axis 2") && Catch::Contains("rank 2"));
    CHECK_THROWS_AS(concat({Tensor::scalar(1.0), Tensor::scalar(2.0)}), ValueError);
    CHECK_THROWS_AS(concat({}), TypeError);
}

TEST_CASE("concat's gradient is split back to each input, integer inputs get none")
{
    auto f = [](const std::vector<Value>& v) -> Value {
        const Tensor y = concat({v[0].tensor(), v[1].tensor()}, 0);
        return reduceSum(y * Tensor::fromVector<float>({3}, {1, 2, 3}));
    };
    const Value g = grad(f, std::vector<std::int64_t>{0, 1})({arange({1}), arange({2})});
    CHECK(g[0].tensor().toDoubles() == std::vector<double>{1});
    CHECK(g[1].tensor().toDoubles() == std::vector<double>{2, 3});
}
