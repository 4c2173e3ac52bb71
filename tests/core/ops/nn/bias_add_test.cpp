// Tests of BiasAdd (core/ops/nn/bias_add.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <limits>

using namespace gradstep;

TEST_CASE("bias_add adds the bias along axis 1")
{
    const Tensor x = Tensor::zeros({2, 3, 2});
    const Tensor y = biasAdd(x, Tensor::fromDoubles({3}, {1, 2, 3}));
    CHECK(y.toDoubles() == std::vector<double>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3});
    const Tensor ints = biasAdd(Tensor::fromVector<std::int32_t>({1, 2}, {5, 6}), Tensor::fromVector<std::int32_t>({2}, {1, 1}));
    CHECK(ints.toDoubles() == std::vector<double>{6, 7});
}

TEST_CASE("bias_add's bias gradient sums every axis but the channels")
{
    const Tensor x = Tensor::zeros({2, 3, 2}, DType::Float64);
    const Tensor b = Tensor::zeros({3}, DType::Float64);
    const Value g = grad([](const std::vector<Value>& a) { return Value(biasAdd(a[0].tensor(), a[1].tensor())); },
                         std::vector<std::int64_t>{0, 1})({Value(x), Value(b)});
    CHECK(g[0].tensor().toDoubles() == std::vector<double>(12, 1.0));
    CHECK(g[1].tensor().toDoubles() == std::vector<double>(3, 4.0));
}

TEST_CASE("bias_add needs a bias matching the channels")
{
    CHECK_THROWS_WITH(biasAdd(Tensor::zeros({2, 3}), Tensor::zeros({2})),
                      Catch::Contains("'BiasAdd'") && Catch::Contains("[3]") && Catch::Contains("got [2]"));
    CHECK_THROWS_AS(biasAdd(Tensor::zeros({3}), Tensor::zeros({3})), ShapeError);
    CHECK_THROWS_AS(biasAdd(Tensor::zeros({2, 3}), Tensor::zeros({3}, DType::Float64)), DTypeError);
}

// Found by tests/fuzz: the integer addition overflowed a signed type (undefined behaviour,
// reported by UBSan in the sanitizer build).
TEST_CASE("bias_add of integers wraps around on overflow")
{
    const std::int64_t low = std::numeric_limits<std::int64_t>::min();
    const Tensor y = biasAdd(Tensor::fromVector<std::int64_t>({1, 2}, {low, 7}),
                             Tensor::fromVector<std::int64_t>({2}, {-2, 1}));
    CHECK(y.data<std::int64_t>()[0] == std::numeric_limits<std::int64_t>::max() - 1);
    CHECK(y.data<std::int64_t>()[1] == 8);
}
