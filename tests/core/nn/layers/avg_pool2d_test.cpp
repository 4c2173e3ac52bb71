// Tests of nn.AvgPool2d (core/nn/layers/avg_pool2d.cpp). SPDX-License-Identifier: MIT
#include "nn/layers/avg_pool2d.h"

#include <catch2/catch.hpp>

using namespace gradstep;

TEST_CASE("AvgPool2d averages each window")
{
    Tensor x = Tensor::fromVector<float>({1, 1, 4, 4},
                                         {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    CHECK(AvgPool2d(2, 2)(x).tensor().toDoubles() == std::vector<double>{3.5, 5.5, 11.5, 13.5});
    CHECK_THROWS_AS(AvgPool2d(2, 2, "full"), ValueError);
}
