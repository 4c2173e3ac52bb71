// Tests of nn.Dropout (core/nn/layers/dropout.cpp). SPDX-License-Identifier: MIT
#include "nn/layers/dropout.h"

#include "autodiff/tape.h"
#include "random/generator.h"

#include <catch2/catch.hpp>

using namespace gradstep;

TEST_CASE("Dropout is the identity in eval mode, MindSpore's default")
{
    Dropout dropout(0.5);
    Tensor x = Tensor::full({4, 4}, 1.0);
    CHECK_FALSE(dropout.training());
    CHECK(dropout(x).tensor().sameAs(x));
}

TEST_CASE("Dropout in training mode zeroes elements and scales the rest by 1 / keep_prob")
{
    Dropout dropout(0.25);
    dropout.setTrain();
    setSeed(11);
    Tensor x = Tensor::full({100, 100}, 1.0);
    Tensor y = dropout(x).tensor();
    std::int64_t kept = 0;
    for (std::int64_t i = 0; i < y.numel(); ++i) {
        CHECK((y.at(i) == 0.0 || y.at(i) == 4.0));
        kept += y.at(i) != 0.0;
    }
    CHECK(kept == Approx(2500).margin(200));
    setSeed(11);
    Tensor again = dropout(x).tensor();
    CHECK(again.toDoubles() == y.toDoubles());
    CHECK_FALSE(dropout(x).tensor().toDoubles() == y.toDoubles());
}

TEST_CASE("Dropout with keep_prob 1 keeps everything and bad keep_prob is a ValueError")
{
    Dropout keepAll(1.0);
    keepAll.setTrain();
    Tensor x = Tensor::full({3}, 2.0);
    CHECK(keepAll(x).tensor().sameAs(x));
    CHECK_THROWS_WITH(Dropout(0.0),
                      "for 'Dropout', the 'keep_prob' must be a number in range (0, 1], but got 0");
    CHECK_THROWS_AS(Dropout(1.5), ValueError);
    CHECK(Dropout().toString() == "Dropout<keep_prob=0.5>");
}
