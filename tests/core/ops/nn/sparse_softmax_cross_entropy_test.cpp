// Tests of SparseSoftmaxCrossEntropyWithLogits (core/ops/nn/sparse_softmax_cross_entropy.cpp).
// SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

TEST_CASE("sparse cross-entropy matches MindSpore's example: label 1 gives 67 (SEMANTICS 7.1)")
{
    const Tensor logits = Tensor::fromDoubles({1, 10}, {3, 5, 6, 9, 12, 33, 42, 12, 32, 72});
    const Tensor loss = sparseSoftmaxCrossEntropy(logits, Tensor::fromVector<std::int32_t>({1}, {1}));
    CHECK(loss.shape() == Shape{1});
    CHECK(loss.dtype() == DType::Float32);
    CHECK(loss.at(0) == Approx(67.0));
    CHECK(sparseSoftmaxCrossEntropy(logits, Tensor::fromVector<std::int64_t>({1}, {1})).at(0) == Approx(67.0));
}

TEST_CASE("sparse cross-entropy is log-sum-exp minus the label's logit, stable for large logits")
{
    const Tensor logits = Tensor::fromDoubles({2, 3}, {1, 2, 3, 1000, 0, -1000}, DType::Float64);
    const Tensor loss = sparseSoftmaxCrossEntropy(logits, Tensor::fromVector<std::int32_t>({2}, {2, 1}));
    CHECK(loss.at(0) == Approx(std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0)) - 3));
    CHECK(loss.at(1) == Approx(1000.0));
    // Float32 near 1000: the maximum is subtracted before anything is added to it.
    const Tensor near = sparseSoftmaxCrossEntropy(Tensor::fromDoubles({1, 2}, {1000, 999}),
                                                  Tensor::fromVector<std::int32_t>({1}, {0}));
    CHECK(near.at(0) == Approx(std::log1p(std::exp(-1.0))).epsilon(1e-6));
}

TEST_CASE("sparse cross-entropy's gradient is softmax minus one-hot, scaled per sample")
{
    const Tensor logits = Tensor::fromDoubles({2, 3}, {0, 0, 0, 1, 2, 3}, DType::Float64);
    const Tensor labels = Tensor::fromVector<std::int32_t>({2}, {0, 2});
    const Tensor dx = grad([&](const std::vector<Value>& a) {
                          return Value(reduceSum(sparseSoftmaxCrossEntropy(a[0].tensor(), labels)));
                      })({Value(logits)})
                          .tensor();
    const Tensor p = softmax(logits);
    CHECK(dx.at(0) == Approx(1.0 / 3 - 1));
    CHECK(dx.at(1) == Approx(1.0 / 3));
    CHECK(dx.at(5) == Approx(p.at(5) - 1));
}

TEST_CASE("sparse cross-entropy names an out-of-range label")
{
    const Tensor logits = Tensor::zeros({2, 10});
    CHECK_THROWS_AS(sparseSoftmaxCrossEntropy(logits, Tensor::fromVector<std::int32_t>({2}, {1, 10})), IndexError);
    CHECK_THROWS_WITH(sparseSoftmaxCrossEntropy(logits, Tensor::fromVector<std::int64_t>({2}, {-1, 3})),
                      Catch::Contains("'SparseSoftmaxCrossEntropyWithLogits'") && Catch::Contains("label -1")
                          && Catch::Contains("[0, 10)"));
    CHECK_THROWS_AS(sparseSoftmaxCrossEntropy(logits, Tensor::zeros({2})), DTypeError);
    CHECK_THROWS_AS(sparseSoftmaxCrossEntropy(logits, Tensor::fromVector<std::int32_t>({3}, {0, 0, 0})), ShapeError);
}
