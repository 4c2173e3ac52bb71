// Tests of LeNet5 (core/nn/models/lenet5.cpp). SPDX-License-Identifier: MIT
#include "nn/models/lenet5.h"

#include "autodiff/tape.h"
#include "random/generator.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace gradstep;

namespace {

bool bitIdentical(const Tensor& a, const Tensor& b)
{
    return a.shape() == b.shape() && a.dtype() == b.dtype()
        && std::memcmp(a.rawData(), b.rawData(), a.nbytes()) == 0;
}

} // namespace

TEST_CASE("LeNet5 has the parameters of lenet.py in order")
{
    LeNet5 net;
    std::vector<std::string> got;
    for (const auto& [name, p] : net.parametersAndNames())
        got.push_back(name + " " + p.shape().toString());
    CHECK(got
          == std::vector<std::string>{"conv1.weight [6, 1, 5, 5]", "conv2.weight [16, 6, 5, 5]",
                                      "fc1.weight [120, 400]", "fc1.bias [120]",
                                      "fc2.weight [84, 120]", "fc2.bias [84]",
                                      "fc3.weight [10, 84]", "fc3.bias [10]"});
}

TEST_CASE("LeNet5 maps (N, 1, 32, 32) to logits and labels its nodes by scope")
{
    LeNet5 net;
    Tape tape;
    Tensor y;
    {
        TapeGuard guard(tape);
        y = net(Tensor::zeros({2, 1, 32, 32})).tensor();
    }
    CHECK(y.shape() == Shape{2, 10});
    REQUIRE(tape.size() > 3);
    CHECK(tape.nodes()[0]->label() == "LeNet5/conv1/Conv2D");
    CHECK(tape.nodes()[1]->label() == "LeNet5/relu/ReLU");
    CHECK(tape.nodes()[2]->label() == "LeNet5/max_pool2d/MaxPool");
    CHECK(tape.nodes().back()->label() == "LeNet5/fc3/BiasAdd");
}

TEST_CASE("LeNet5 without the top returns the (N, 16, 5, 5) features and other class counts work")
{
    LeNet5 features(10, 1, false);
    CHECK(features.trainableParams().size() == 2);
    CHECK(features(Tensor::zeros({3, 1, 32, 32})).tensor().shape() == Shape{3, 16, 5, 5});
    LeNet5 rgb(4, 3);
    CHECK(rgb(Tensor::zeros({1, 3, 32, 32})).tensor().shape() == Shape{1, 4});
}

TEST_CASE("the same seed gives bit-identical LeNet5 weights and another seed different ones")
{
    setSeed(2024);
    LeNet5 a;
    setSeed(2024);
    LeNet5 b;
    setSeed(2025);
    LeNet5 c;
    const ParameterTuple pa = a.trainableParams(), pb = b.trainableParams(),
                         pc = c.trainableParams();
    REQUIRE(pa.size() == 8);
    for (std::size_t i = 0; i < pa.size(); ++i) {
        INFO(pa[i].name());
        CHECK(pa[i].name() == pb[i].name());
        CHECK(bitIdentical(pa[i], pb[i]));
        CHECK_FALSE(bitIdentical(pa[i], pc[i]));
    }
    double sumSquares = 0.0;
    const Tensor fc1 = a.parameter("fc1.weight");
    for (std::int64_t i = 0; i < fc1.numel(); ++i)
        sumSquares += fc1.at(i) * fc1.at(i);
    CHECK(std::sqrt(sumSquares / static_cast<double>(fc1.numel())) == Approx(0.02).epsilon(0.05));
}
