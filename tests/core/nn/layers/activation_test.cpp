// Tests of the activation Cells and get_activation (core/nn/layers/activation.cpp, relu.cpp,
// sigmoid.cpp, tanh.cpp, softmax.cpp). SPDX-License-Identifier: MIT
#include "nn/layers/activation.h"

#include "nn/layers/relu.h"
#include "nn/layers/softmax.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

TEST_CASE("activation cells compute their functions")
{
    Tensor x = Tensor::fromVector<double>({1, 3}, {-1.0, 0.0, 2.0});
    CHECK(ReLU()(x).tensor().toDoubles() == std::vector<double>{0.0, 0.0, 2.0});
    CHECK((*getActivation("sigmoid"))(x).tensor().at(2) == Approx(1.0 / (1.0 + std::exp(-2.0))));
    CHECK((*getActivation("tanh"))(x).tensor().at(0) == Approx(std::tanh(-1.0)));
    Tensor p = Softmax()(x).tensor();
    const double z = std::exp(-1.0) + 1.0 + std::exp(2.0);
    CHECK(p.at(2) == Approx(std::exp(2.0) / z));
    CHECK(Softmax(0)(x).tensor().at(1) == Approx(1.0));
}

TEST_CASE("get_activation knows MindSpore's names and nothing else")
{
    CHECK(getActivation("") == nullptr);
    CHECK(getActivation("relu")->className() == "ReLU");
    CHECK(getActivation("softmax")->className() == "Softmax");
    CHECK_THROWS_WITH(getActivation("gelu2"),
                      Catch::Contains("the activation 'gelu2' is not supported"));
}
