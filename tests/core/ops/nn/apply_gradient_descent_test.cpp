// Tests of ApplyGradientDescent (core/ops/nn/apply_gradient_descent.cpp).
// SPDX-License-Identifier: MIT
#include "ops/ops.h"
#include "ops/registry.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

TEST_CASE("apply_gradient_descent updates var in place and returns it")
{
    Tensor var = Tensor::fromDoubles({3}, {1.0, 2.0, 3.0}, DType::Float64);
    const Tensor alias = var;
    const Tensor out = applyGradientDescent(var, Tensor::fromDoubles({}, {0.5}, DType::Float64),
                                            Tensor::fromDoubles({3}, {2.0, -4.0, 0.0}, DType::Float64));
    CHECK(out.sameAs(var));
    CHECK(alias.toDoubles() == std::vector<double>{0.0, 4.0, 3.0});
    CHECK_FALSE(OpRegistry::instance().get("ApplyGradientDescent").differentiable());
}

TEST_CASE("apply_gradient_descent rounds as sub(var, mul(alpha, delta)) in float32")
{
    const Tensor delta = Tensor::fromDoubles({4}, {0.1, 1e-8, 3.3, -7.77});
    const Tensor alpha = Tensor::fromDoubles({}, {0.01});
    Tensor var = Tensor::fromDoubles({4}, {1.0, 1.0, -2.5, std::nan("")});
    const Tensor expected = sub(var, mul(alpha, delta));
    applyGradientDescent(var, alpha, delta);
    CHECK(var.toDoubles()[0] == expected.toDoubles()[0]);
    CHECK(var.toDoubles()[1] == expected.toDoubles()[1]);
    CHECK(var.toDoubles()[2] == expected.toDoubles()[2]);
    CHECK(std::isnan(var.toDoubles()[3]));
}

TEST_CASE("apply_gradient_descent errors name the op")
{
    Tensor var = Tensor::zeros({2});
    CHECK_THROWS_WITH(applyGradientDescent(var, Tensor::zeros({2}), Tensor::zeros({2})),
                      Catch::Contains("'ApplyGradientDescent'") && Catch::Contains("one element"));
    CHECK_THROWS_AS(applyGradientDescent(var, Tensor::zeros({}), Tensor::zeros({3})), ShapeError);
    CHECK_THROWS_AS(applyGradientDescent(var, Tensor::zeros({}, DType::Float64), Tensor::zeros({2})), DTypeError);
    Tensor ints = Tensor::zeros({2}, DType::Int32);
    CHECK_THROWS_AS(applyGradientDescent(ints, Tensor::zeros({}, DType::Int32), Tensor::zeros({2}, DType::Int32)),
                    DTypeError);
}
