// Tests of the loss Cells (core/nn/losses/*.cpp): reductions, the sparse and dense
// cross-entropy, and the argument checks. SPDX-License-Identifier: MIT
#include "nn/losses/bce_with_logits_loss.h"
#include "nn/losses/l1_loss.h"
#include "nn/losses/mse_loss.h"
#include "nn/losses/softmax_cross_entropy_with_logits.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

TEST_CASE("SoftmaxCrossEntropyWithLogits gives one loss per sample by default (SEMANTICS 7.1)")
{
    Tensor logits = Tensor::fromVector<float>({1, 10}, {3, 5, 6, 9, 12, 33, 42, 12, 32, 72});
    Tensor label = Tensor::fromVector<std::int32_t>({1}, {1});
    SoftmaxCrossEntropyWithLogits sparse(true);
    CHECK(sparse.reduction() == "none");
    Tensor loss = sparse(logits, label).tensor();
    REQUIRE(loss.shape() == Shape{1});
    CHECK(loss.at(0) == Approx(67.0));
    Tensor oneHot = Tensor::fromVector<float>({1, 10}, {0, 1, 0, 0, 0, 0, 0, 0, 0, 0});
    CHECK(SoftmaxCrossEntropyWithLogits()(logits, oneHot).tensor().at(0) == Approx(67.0));
}

TEST_CASE("loss reductions take the mean or the sum over every element")
{
    Tensor logits = Tensor::fromVector<double>({2, 2}, {0.0, 0.0, 1.0, 3.0});
    Tensor labels = Tensor::fromVector<std::int32_t>({2}, {0, 1});
    const double perSample0 = std::log(2.0), perSample1 = std::log(1.0 + std::exp(-2.0));
    CHECK(SoftmaxCrossEntropyWithLogits(true, "mean")(logits, labels).tensor().item()
          == Approx((perSample0 + perSample1) / 2));
    CHECK(SoftmaxCrossEntropyWithLogits(true, "sum")(logits, labels).tensor().item()
          == Approx(perSample0 + perSample1));
    Tensor x = Tensor::fromVector<double>({2, 2}, {1, 2, 3, 4});
    Tensor y = Tensor::fromVector<double>({2, 2}, {0, 0, 0, 6});
    CHECK(MSELoss()(x, y).tensor().item() == Approx((1 + 4 + 9 + 4) / 4.0));
    CHECK(MSELoss("sum")(x, y).tensor().item() == Approx(18.0));
    CHECK(MSELoss("none")(x, y).tensor().shape() == Shape{2, 2});
    CHECK(L1Loss()(x, y).tensor().item() == Approx((1 + 2 + 3 + 2) / 4.0));
    const Tensor z = Tensor::fromVector<double>({2}, {0.0, 2.0});
    const Tensor t = Tensor::fromVector<double>({2}, {1.0, 0.0});
    const double bce = (std::log(2.0) + (2.0 + std::log(1.0 + std::exp(-2.0)))) / 2.0;
    CHECK(BCEWithLogitsLoss()(z, t).tensor().item() == Approx(bce));
}

TEST_CASE("an unknown reduction is a ValueError naming the loss")
{
    CHECK_THROWS_WITH(
        SoftmaxCrossEntropyWithLogits(false, "average"),
        "for 'SoftmaxCrossEntropyWithLogits', the 'reduction' must be in ['mean', 'sum', 'none'], "
        "but got average");
    CHECK_THROWS_AS(MSELoss("max"), ValueError);
    CHECK_THROWS_AS(L1Loss(""), ValueError);
    CHECK_THROWS_AS(BCEWithLogitsLoss("Mean"), ValueError);
    CHECK(MSELoss().toString() == "MSELoss<>"); // MindSpore's losses print no arguments
}
