// Tests of AvgPool and AvgPoolGrad (core/ops/nn/avg_pool*.cpp). SPDX-License-Identifier: MIT
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <numeric>

using namespace gradstep;

namespace {
Pool2dOptions pool(std::int64_t kernel, std::int64_t stride, std::string mode = "valid")
{
    Pool2dOptions o;
    o.kernel = {kernel, kernel};
    o.stride = {stride, stride};
    o.padMode = std::move(mode);
    return o;
}
} // namespace

TEST_CASE("avg_pool2d averages each window")
{
    std::vector<double> v(16);
    std::iota(v.begin(), v.end(), 0.0);
    const Tensor y = avgPool2d(Tensor::fromDoubles({1, 1, 4, 4}, v), pool(2, 2));
    CHECK(y.toDoubles() == std::vector<double>{2.5, 4.5, 10.5, 12.5});
}

TEST_CASE("avg_pool2d 'same' divides by the number of real elements, not the kernel area")
{
    // 3x3 of ones, kernel 2, stride 2: windows of 4, 2, 2 and 1 real elements all average to 1.
    const Tensor y = avgPool2d(Tensor::full({1, 1, 3, 3}, 1.0), pool(2, 2, "same"));
    CHECK(y.shape() == Shape{1, 1, 2, 2});
    CHECK(y.toDoubles() == std::vector<double>(4, 1.0));
    // The gradient of the corner window (one element) is not diluted either.
    const Tensor dx = avgPoolGrad(Tensor::full({1, 1, 2, 2}, 1.0), {1, 1, 3, 3}, pool(2, 2, "same"));
    CHECK(dx.toDoubles() == std::vector<double>{0.25, 0.25, 0.5, 0.25, 0.25, 0.5, 0.5, 0.5, 1.0});
}

TEST_CASE("avg_pool_grad checks the gradient against the input shape it is given")
{
    CHECK_THROWS_WITH(avgPoolGrad(Tensor::zeros({1, 1, 3, 3}), {1, 1, 4, 4}, pool(2, 2)),
                      Catch::Contains("'AvgPoolGrad'") && Catch::Contains("expected [1, 1, 2, 2]"));
    CHECK_THROWS_AS(avgPoolGrad(Tensor::zeros({1, 1, 2, 2}), {1, 4, 4}, pool(2, 2)), ValueError);
}
