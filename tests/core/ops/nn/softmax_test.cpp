// Tests of Softmax and LogSoftmax (core/ops/nn/softmax.cpp, log_softmax.cpp). SPDX-License-Identifier: MIT
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

TEST_CASE("softmax rows sum to one along the chosen axis")
{
    const Tensor x = Tensor::fromDoubles({2, 3}, {1, 2, 3, -1, 0, 1}, DType::Float64);
    const Tensor y = softmax(x);
    const double e = std::exp(1.0), d = 1 + e + e * e;
    CHECK(y.at(0) == Approx(1 / d));
    CHECK(y.at(2) == Approx(e * e / d));
    CHECK(y.at(3) == Approx(1 / d)); // shift invariance
    const Tensor columns = softmax(x, 0);
    CHECK(columns.at(0) + columns.at(3) == Approx(1.0));
    CHECK(columns.at(0) == Approx(1 / (1 + std::exp(-2.0))));
}

TEST_CASE("softmax and log_softmax stay finite for huge logits")
{
    const Tensor x = Tensor::fromDoubles({1, 3}, {1000, 1001, 1002});
    const Tensor y = softmax(x);
    CHECK(y.at(0) + y.at(1) + y.at(2) == Approx(1.0));
    const Tensor logY = logSoftmax(x);
    CHECK(logY.at(2) == Approx(-std::log(1 + std::exp(-1.0) + std::exp(-2.0))));
    CHECK(std::isfinite(logSoftmax(Tensor::fromDoubles({2}, {-1000, 1000})).at(0)));
    CHECK(logSoftmax(Tensor::fromDoubles({2}, {-1000, 1000})).at(0) == Approx(-2000));
}

TEST_CASE("softmax of a slice holding NaN is NaN")
{
    const Tensor y = softmax(Tensor::fromDoubles({2, 2}, {1, std::nan(""), 1, 2}));
    CHECK(std::isnan(y.at(0)));
    CHECK(std::isnan(y.at(1)));
    CHECK(y.at(2) + y.at(3) == Approx(1.0));
}

TEST_CASE("softmax of a 0-D tensor is 1 and empty tensors stay empty")
{
    CHECK(softmax(Tensor::scalar(5.0)).item() == 1.0);
    CHECK(logSoftmax(Tensor::scalar(5.0)).item() == 0.0);
    CHECK(softmax(Tensor::zeros({0, 3})).shape() == Shape{0, 3});
}

TEST_CASE("softmax rejects a bad axis or an integer input")
{
    CHECK_THROWS_AS(softmax(Tensor::zeros({2, 3}), 2), ValueError);
    CHECK_THROWS_WITH(logSoftmax(Tensor::zeros({2, 3}), -3), Catch::Contains("'LogSoftmax'"));
    CHECK_THROWS_AS(softmax(Tensor::zeros({2, 3}, DType::Int32)), DTypeError);
}
