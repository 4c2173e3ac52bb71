// Tests of nn.MaxPool2d (core/nn/layers/max_pool2d.cpp, pool_args.cpp).
// SPDX-License-Identifier: MIT
#include "nn/layers/max_pool2d.h"

#include <catch2/catch.hpp>

using namespace gradstep;

TEST_CASE("MaxPool2d takes window maxima with MindSpore's defaults")
{
    Tensor x = Tensor::fromVector<float>({1, 1, 4, 4},
                                         {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    CHECK(MaxPool2d(2, 2)(x).tensor().toDoubles() == std::vector<double>{6, 8, 14, 16});
    CHECK(MaxPool2d()(x).tensor().shape() == Shape{1, 1, 4, 4});
    CHECK(MaxPool2d(3, 1)(Tensor::zeros({1, 2, 4, 4})).tensor().shape() == Shape{1, 2, 2, 2});
    CHECK(MaxPool2d(3, 2, "SAME")(x).tensor().shape() == Shape{1, 1, 2, 2});
    CHECK(MaxPool2d(2, 2).toString()
          == "MaxPool2d<kernel_size=(2, 2), stride=(2, 2), pad_mode=VALID>");
}

TEST_CASE("MaxPool2d rejects bad kernel, stride and pad mode")
{
    CHECK_THROWS_WITH(MaxPool2d(0), "for 'MaxPool2d', 'kernel_size' must be positive, got (0, 0)");
    CHECK_THROWS_AS(MaxPool2d(2, {1, 0}), ValueError);
    CHECK_THROWS_WITH(MaxPool2d(2, 2, "pad"),
                      "for 'MaxPool2d', 'pad_mode' must be 'same' or 'valid', got 'pad'");
}
