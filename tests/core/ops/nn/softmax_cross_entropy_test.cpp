// Tests of SoftmaxCrossEntropyWithLogits (core/ops/nn/softmax_cross_entropy.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

TEST_CASE("dense cross-entropy with a one-hot row equals the sparse loss")
{
    std::vector<double> onehot(10, 0.0);
    onehot[1] = 1.0;
    const Tensor logits = Tensor::fromDoubles({1, 10}, {3, 5, 6, 9, 12, 33, 42, 12, 32, 72});
    CHECK(softmaxCrossEntropy(logits, Tensor::fromDoubles({1, 10}, onehot)).at(0) == Approx(67.0));
}

TEST_CASE("dense cross-entropy mixes the classes by the label probabilities")
{
    const Tensor logits = Tensor::fromDoubles({1, 2}, {0, std::log(3.0)}, DType::Float64);
    const Tensor labels = Tensor::fromDoubles({1, 2}, {0.5, 0.5}, DType::Float64);
    // p = (1/4, 3/4): loss = -(log(1/4) + log(3/4)) / 2.
    CHECK(softmaxCrossEntropy(logits, labels).at(0) == Approx(-(std::log(0.25) + std::log(0.75)) / 2));
    const Tensor dx = grad([&](const std::vector<Value>& a) {
                          return Value(reduceSum(softmaxCrossEntropy(a[0].tensor(), labels)));
                      })({Value(logits)})
                          .tensor();
    CHECK(dx.at(0) == Approx(0.25 - 0.5));
    CHECK(dx.at(1) == Approx(0.75 - 0.5));
}

TEST_CASE("dense cross-entropy ignores -Inf logits whose label is zero")
{
    const Tensor logits = Tensor::fromDoubles({1, 2}, {-INFINITY, 0});
    CHECK(softmaxCrossEntropy(logits, Tensor::fromDoubles({1, 2}, {0, 1})).at(0) == 0.0);
}

TEST_CASE("dense cross-entropy needs labels of the logits' shape and dtype")
{
    CHECK_THROWS_AS(softmaxCrossEntropy(Tensor::zeros({2, 3}), Tensor::zeros({2, 4})), ShapeError);
    CHECK_THROWS_AS(softmaxCrossEntropy(Tensor::zeros({2, 3}), Tensor::zeros({2, 3}, DType::Float64)), DTypeError);
    CHECK_THROWS_WITH(softmaxCrossEntropy(Tensor::zeros({6}), Tensor::zeros({6})),
                      Catch::Contains("'SoftmaxCrossEntropyWithLogits'") && Catch::Contains("[6]"));
}
