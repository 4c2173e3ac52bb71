// Tests of nn.Conv2d (core/nn/layers/conv2d.cpp). SPDX-License-Identifier: MIT
#include "nn/layers/conv2d.h"

#include "autodiff/tape.h"
#include "random/generator.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

TEST_CASE("Conv2d defaults to 'same' padding without bias, as MindSpore does")
{
    Conv2d conv(1, 6, 5);
    CHECK(conv.padMode() == "same");
    CHECK(conv.trainableParams().size() == 1);
    CHECK(conv.weight().shape() == Shape{6, 1, 5, 5});
    Tensor y = conv(Tensor::zeros({2, 1, 32, 32})).tensor();
    CHECK(y.shape() == Shape{2, 6, 32, 32});
    CHECK(conv.toString()
          == "Conv2d<input_channels=1, output_channels=6, kernel_size=(5, 5), stride=(1, 1), "
             "pad_mode=same, padding=(0, 0, 0, 0), dilation=(1, 1), group=1, has_bias=False>");
}

TEST_CASE("Conv2d output sizes follow the pad mode, stride and dilation")
{
    Tensor x = Tensor::zeros({1, 2, 9, 9});
    CHECK(Conv2d(2, 4, 3, 1, "valid")(x).tensor().shape() == Shape{1, 4, 7, 7});
    CHECK(Conv2d(2, 4, 3, 2, "same")(x).tensor().shape() == Shape{1, 4, 5, 5});
    CHECK(Conv2d(2, 4, 3, 1, "pad", 1)(x).tensor().shape() == Shape{1, 4, 9, 9});
    CHECK(Conv2d(2, 4, {3, 1}, 1, "pad", {1, 1, 0, 0})(x).tensor().shape() == Shape{1, 4, 9, 9});
    CHECK(Conv2d(2, 4, 3, 1, "valid", 0, 2)(x).tensor().shape() == Shape{1, 4, 5, 5});
    CHECK(Conv2d(2, 4, 3, 1, "VALID", 0, 1, 2)(x).tensor().shape() == Shape{1, 4, 7, 7});
}

TEST_CASE("Conv2d computes a cross-correlation and adds its bias")
{
    // One 2x2 kernel [[1, 2], [3, 4]] over [[1, 2, 3], [4, 5, 6], [7, 8, 9]], bias 10.
    Conv2d conv(1, 1, 2, 1, "valid", 0, 1, 1, true,
                Tensor::fromVector<float>({1, 1, 2, 2}, {1, 2, 3, 4}), "zeros");
    Parameter(conv.bias()).assign(Tensor::fromVector<float>({1}, {10.f}));
    Tensor x = Tensor::fromVector<float>({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    Tape tape;
    Tensor y;
    {
        TapeGuard guard(tape);
        y = conv(x).tensor();
    }
    CHECK(y.toDoubles() == std::vector<double>{47, 57, 77, 87});
    REQUIRE(tape.size() == 2);
    CHECK(tape.nodes()[0]->label() == "Conv2d/Conv2D");
    CHECK(tape.nodes()[1]->label() == "Conv2d/BiasAdd");
}

TEST_CASE("Conv2d rejects inconsistent arguments with ValueError")
{
    CHECK_THROWS_WITH(Conv2d(1, 6, 5, 1, "same", 1),
                      Catch::Contains("'padding' must be zero when 'pad_mode' is not 'pad'"));
    CHECK_THROWS_WITH(Conv2d(1, 6, 5, 1, "full"), Catch::Contains("'pad_mode' must be one of"));
    CHECK_THROWS_AS(Conv2d(3, 6, 5, 1, "same", 0, 1, 2), ValueError);
    CHECK_THROWS_AS(Conv2d(1, 6, 0), ValueError);
    CHECK_THROWS_AS(Conv2d(1, 6, 5, 0), ValueError);
    CHECK_THROWS_AS(Conv2d(1, 6, 5, 1, "pad", -1), ValueError);
    CHECK_THROWS_AS(Conv2d(0, 6, 5), ValueError);
}

TEST_CASE("Conv2d default init is HeUniform(sqrt(5)) with a Uniform(1 / sqrt(fan_in)) bias")
{
    setSeed(5);
    Conv2d conv(6, 16, 5, 1, "valid", 0, 1, 1, true);
    const double bound = 1.0 / std::sqrt(150.0);
    double maxWeight = 0.0, maxBias = 0.0;
    for (std::int64_t i = 0; i < conv.weight().numel(); ++i)
        maxWeight = std::max(maxWeight, std::abs(conv.weight().at(i)));
    for (std::int64_t i = 0; i < 16; ++i)
        maxBias = std::max(maxBias, std::abs(conv.bias().at(i)));
    CHECK(maxWeight <= bound);
    CHECK(maxWeight > 0.99 * bound);
    CHECK(maxBias <= bound);
}
