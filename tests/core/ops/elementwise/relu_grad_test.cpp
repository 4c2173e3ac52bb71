// Tests of ReluGrad (core/ops/elementwise/relu_grad.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace gradstep;

TEST_CASE("relu_grad passes dy where x > 0 and gives 0 at the kink, below it and at NaN x")
{
    const double inf = std::numeric_limits<double>::infinity();
    const Tensor x = Tensor::fromDoubles({5}, {2.0, 0.0, -0.0, -3.0, std::nan("")});
    const Tensor dy = Tensor::fromDoubles({5}, {7.0, 1.0, inf, std::nan(""), 4.0});
    CHECK(reluGrad(dy, x).toDoubles() == std::vector<double>{7.0, 0.0, 0.0, 0.0, 0.0});
    // ReLU's gradient is the same values.
    const Tensor viaRelu = grad([](const std::vector<Value>& a) { return Value(reduceSum(relu(a[0].tensor()))); })(
                               {Value(x)})
                               .tensor();
    CHECK(viaRelu.toDoubles() == std::vector<double>{1.0, 0.0, 0.0, 0.0, 0.0});
}

TEST_CASE("relu_grad errors name the op")
{
    CHECK_THROWS_WITH(reluGrad(Tensor::zeros({2}), Tensor::zeros({3})),
                      Catch::Contains("'ReluGrad'") && Catch::Contains("expected the input's [3]"));
    CHECK_THROWS_AS(reluGrad(Tensor::zeros({2}), Tensor::zeros({2}, DType::Float64)), DTypeError);
    CHECK_THROWS_AS(reluGrad(Tensor::zeros({2}, DType::Int32), Tensor::zeros({2}, DType::Int32)), DTypeError);
}
