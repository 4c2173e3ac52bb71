// Tests of the composite losses mse_loss, l1_loss and bce_with_logits (core/ops/nn/mse_loss.cpp,
// l1_loss.cpp, bce_with_logits.cpp). Their gradients come from the ops they are built of; the
// checks here compare them with the closed forms. SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

namespace {
const Tensor kPrediction = Tensor::fromDoubles({2, 2}, {1, 2, 3, 4}, DType::Float64);
const Tensor kTarget = Tensor::fromDoubles({2, 2}, {1, 0, 4, 6}, DType::Float64);

Tensor gradOf(Tensor (*loss)(const Tensor&, const Tensor&, const std::string&), const Tensor& x,
              const Tensor& t, const std::string& reduction)
{
    return grad([&](const std::vector<Value>& a) { return Value(loss(a[0].tensor(), t, reduction)); })({Value(x)})
        .tensor();
}
} // namespace

TEST_CASE("mse_loss reduces squared differences by mean, sum or not at all")
{
    CHECK(mseLoss(kPrediction, kTarget).item() == Approx((0 + 4 + 1 + 4) / 4.0));
    CHECK(mseLoss(kPrediction, kTarget, "sum").item() == Approx(9.0));
    CHECK(mseLoss(kPrediction, kTarget, "none").toDoubles() == std::vector<double>{0, 4, 1, 4});
    CHECK(gradOf(mseLoss, kPrediction, kTarget, "mean").toDoubles() == std::vector<double>{0, 1, -0.5, -1});
    CHECK(std::isnan(mseLoss(Tensor::zeros({0}), Tensor::zeros({0})).item()));
}

TEST_CASE("l1_loss reduces absolute differences and has gradient 0 where they are equal")
{
    CHECK(l1Loss(kPrediction, kTarget).item() == Approx((0 + 2 + 1 + 2) / 4.0));
    CHECK(l1Loss(kPrediction, kTarget, "sum").item() == Approx(5.0));
    CHECK(gradOf(l1Loss, kPrediction, kTarget, "sum").toDoubles() == std::vector<double>{0, 1, -1, -1});
}

TEST_CASE("bce_with_logits is stable for large logits and its gradient is sigmoid minus target")
{
    const Tensor x = Tensor::fromDoubles({4}, {0, 2, -1000, 1000}, DType::Float64);
    const Tensor t = Tensor::fromDoubles({4}, {1, 0.25, 0, 0}, DType::Float64);
    const Tensor loss = bceWithLogits(x, t, "none");
    CHECK(loss.at(0) == Approx(std::log(2.0)));
    CHECK(loss.at(1) == Approx(std::log1p(std::exp(2.0)) - 0.5));
    CHECK(loss.at(2) == 0.0);
    CHECK(loss.at(3) == Approx(1000.0));
    const Tensor g = gradOf(bceWithLogits, x, t, "mean");
    CHECK(g.at(0) == Approx((0.5 - 1) / 4));
    CHECK(g.at(1) == Approx((1 / (1 + std::exp(-2.0)) - 0.25) / 4));
    CHECK(g.at(3) == Approx(0.25));
}

TEST_CASE("the losses reject an unknown reduction before computing anything")
{
    CHECK_THROWS_AS(mseLoss(kPrediction, kTarget, "avg"), ValueError);
    CHECK_THROWS_WITH(l1Loss(kPrediction, kTarget, "MEAN"), Catch::Contains("'L1Loss'") && Catch::Contains("'MEAN'"));
    CHECK_THROWS_WITH(bceWithLogits(kPrediction, kTarget, ""), Catch::Contains("'BCEWithLogitsLoss'"));
}
