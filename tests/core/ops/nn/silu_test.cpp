// Tests of SiLU and SiLUGrad (core/ops/nn/silu.cpp): values against x * sigmoid(x) in float64,
// float32 and float16, infinities, and the gradient against the composed one.
// SPDX-License-Identifier: MIT
#include "ops/nn_grad_ops.h"
#include "ops/silu_ops.h"
#include "tests/core/ops/nn/fused_reference.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("SiLU is x * sigmoid(x) in every float dtype")
{
    const Tensor x = sample({7, 37}, -30, 30, 1);
    const Tensor want = mul(x, sigmoid(x));
    CHECK(maxDiff(silu(x), want) < 1e-13);
    const Tensor x32 = silu(cast(x, DType::Float32));
    CHECK(x32.dtype() == DType::Float32);
    CHECK(maxDiff(x32, want) < 2e-5);
    const Tensor half = silu(cast(x, DType::Float16));
    CHECK(half.dtype() == DType::Float16);
    const Tensor h64 = cast(cast(x, DType::Float16), DType::Float64);
    CHECK(maxDiff(half, mul(h64, sigmoid(h64))) < 2e-2);
}

TEST_CASE("SiLU at the extremes is what x * sigmoid(x) gives")
{
    const Tensor y = silu(Tensor::fromDoubles({4}, {INFINITY, -INFINITY, -200, 200}));
    CHECK(y.at(0) == INFINITY);
    CHECK(std::isnan(y.at(1)));
    CHECK(y.at(2) == 0.0);
    CHECK(y.at(3) == 200.0);
}

TEST_CASE("SiLU's gradient is one SiLUGrad node matching the composed gradient")
{
    const Tensor x = sample({9, 21}, -8, 8, 2);
    const TensorList want = gradsOf([](const TensorList& v) { return mul(v[0], sigmoid(v[0])); }, {x});
    CHECK(maxDiff(gradsOf([](const TensorList& v) { return silu(v[0]); }, {x})[0], want[0]) < 1e-13);
    CHECK(maxDiff(gradsOf([](const TensorList& v) { return silu(v[0]); }, {cast(x, DType::Float32)})[0], want[0]) < 1e-5);
    const Tensor dy = sample({9, 21}, -1, 1, 3);
    const Tensor s = sigmoid(x);
    const Tensor formula = mul(dy, mul(s, add(scalarLike(1.0, s), mul(x, sub(scalarLike(1.0, s), s)))));
    CHECK(maxDiff(siluGrad(x, dy), formula) < 1e-14);
    CHECK_THROWS_AS(silu(Tensor::zeros({2}, DType::Int32)), DTypeError);
}
