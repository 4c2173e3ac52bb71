// Tests of exp (core/ops/elementwise/exp.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("exp of known values, infinities and NaN", "[elementwise]")
{
    checkValues(exp(f64({3}, {0, 1, -1})), {1, std::exp(1.0), std::exp(-1.0)});
    checkValues(exp(f32({4}, {INFINITY, -INFINITY, NAN, 1000})), {kInf, 0, kNaN, kInf});
    CHECK(exp(f32({1}, {1000})).dtype() == DType::Float32);
}

TEST_CASE("exp of a 0-D tensor and of an empty tensor keeps the shape", "[elementwise]")
{
    const Tensor s = exp(Tensor::scalar(0.0, DType::Float64));
    CHECK(s.rank() == 0);
    CHECK(s.item() == 1.0);
    CHECK(exp(Tensor::zeros({0, 3})).shape() == Shape{0, 3});
}

TEST_CASE("exp rejects integer input with a DTypeError naming Exp", "[elementwise]")
{
    CHECK_THAT(messageOf<DTypeError>([] {
                   exp(i32({2}, {1, 2}));
               }),
               Catch::Contains("'Exp'") && Catch::Contains("Int32"));
    CHECK_THROWS_AS(exp(boolean({1}, {true})), DTypeError);
}

TEST_CASE("the gradient of exp is exp, to every order", "[elementwise]")
{
    const Tensor x = f64({3}, {0, 1, -2});
    checkValues(gradOfSum([](const Tensor& t) { return exp(t); }, x),
                {1, std::exp(1.0), std::exp(-2.0)});
    const Tensor second = gradOfSum(
        [](const Tensor& t) { return gradOfSum([](const Tensor& u) { return exp(u); }, t); }, x);
    checkValues(second, {1, std::exp(1.0), std::exp(-2.0)});
}
