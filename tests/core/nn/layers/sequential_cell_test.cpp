// Tests of nn.SequentialCell and nn.Flatten (core/nn/layers/sequential_cell.cpp, flatten.cpp).
// SPDX-License-Identifier: MIT
#include "nn/layers/sequential_cell.h"

#include "nn/layers/dense.h"
#include "nn/layers/flatten.h"
#include "nn/layers/relu.h"

#include <catch2/catch.hpp>

using namespace gradstep;

TEST_CASE("SequentialCell runs its cells in order and names them by index")
{
    SequentialCell seq(
        {std::make_shared<Flatten>(), std::make_shared<Dense>(6, 2, "ones", "zeros")});
    seq.append(std::make_shared<ReLU>());
    CHECK(seq.size() == 3);
    CHECK(seq.at(2)->className() == "ReLU");
    CHECK_THROWS_AS(seq.at(3), IndexError);
    std::vector<std::string> names;
    for (const auto& [name, p] : seq.parametersAndNames())
        names.push_back(name + "=" + p.name());
    CHECK(names == std::vector<std::string>{"1.weight=1.weight", "1.bias=1.bias"});
    Tensor x = Tensor::fromVector<float>({2, 2, 3}, {1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1});
    Tensor y = seq(x).tensor();
    CHECK(y.shape() == Shape{2, 2});
    CHECK(y.toDoubles() == std::vector<double>{6, 6, 0, 0});
}

TEST_CASE("Flatten keeps the batch axis")
{
    CHECK(Flatten()(Tensor::zeros({4, 16, 5, 5})).tensor().shape() == Shape{4, 400});
}
