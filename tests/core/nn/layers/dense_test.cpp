// Tests of nn.Dense (core/nn/layers/dense.cpp). SPDX-License-Identifier: MIT
#include "nn/layers/dense.h"

#include "autodiff/tape.h"
#include "random/generator.h"
#include "nn/layers/relu.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

namespace {

// W = [[1, 2, 3], [-1, 0, 1]], b = [0.5, -0.5]
Dense makeDense(const std::string& activation = "")
{
    return Dense(3, 2, Tensor::fromVector<float>({2, 3}, {1, 2, 3, -1, 0, 1}),
                 Tensor::fromVector<float>({2}, {0.5f, -0.5f}), true, activation);
}

double maxAbs(const Tensor& t)
{
    double m = 0.0;
    for (std::int64_t i = 0; i < t.numel(); ++i)
        m = std::max(m, std::abs(t.at(i)));
    return m;
}

} // namespace

TEST_CASE("Dense computes x @ W^T + b with W of shape (out, in)")
{
    Dense dense = makeDense();
    CHECK(dense.weight().shape() == Shape{2, 3});
    CHECK(dense.bias().shape() == Shape{2});
    Tensor y = dense(Tensor::fromVector<float>({2, 3}, {1, 1, 1, 0, 1, -1})).tensor();
    REQUIRE(y.shape() == Shape{2, 2});
    CHECK(y.toDoubles() == std::vector<double>{6.5, -0.5, -0.5, -1.5});
}

TEST_CASE("Dense applies its activation and flattens inputs of other ranks")
{
    Dense dense = makeDense("relu");
    Tensor y = dense(Tensor::fromVector<float>({1, 2, 3}, {1, 1, 1, 0, 1, -1})).tensor();
    REQUIRE(y.shape() == Shape{1, 2, 2});
    CHECK(y.toDoubles() == std::vector<double>{6.5, 0, 0, 0});
    CHECK_THROWS_AS(makeDense("swish"), ValueError);
    Dense withCell(3, 2, {}, {}, true, std::make_shared<ReLU>());
    CHECK(withCell.toString()
          == "Dense<\n  input_channels=3, output_channels=2, has_bias=True, activation=ReLU<>\n"
             "  (activation): ReLU<>\n  >");
}

TEST_CASE("Dense without bias has only a weight and records MatMul under its scope")
{
    Dense dense(3, 2, "ones", {}, false);
    CHECK(dense.trainableParams().size() == 1);
    CHECK_FALSE(dense.bias().defined());
    Tape tape;
    {
        TapeGuard guard(tape);
        dense(Tensor::full({4, 3}, 1.0));
    }
    REQUIRE(tape.size() == 1);
    CHECK(tape.nodes()[0]->label() == "Dense/MatMul");
}

TEST_CASE("Dense rejects bad sizes and inputs")
{
    CHECK_THROWS_AS(Dense(0, 2), ValueError);
    CHECK_THROWS_AS(Dense(3, 2, Tensor::zeros({3, 2})), ValueError);
    Dense dense(3, 2);
    CHECK_THROWS_WITH(dense(Tensor::zeros({2, 4})),
                      Catch::Contains("in_channels=3") && Catch::Contains("[2, 4]"));
}

TEST_CASE("Dense defaults to HeUniform(sqrt(5)) weights and Uniform(1 / sqrt(in)) bias")
{
    setSeed(3);
    Dense dense(400, 120);
    CHECK(maxAbs(dense.weight()) <= 0.05);
    CHECK(maxAbs(dense.weight()) > 0.049);
    CHECK(maxAbs(dense.bias()) <= 0.05);
    CHECK(maxAbs(dense.bias()) > 0.03);
}
