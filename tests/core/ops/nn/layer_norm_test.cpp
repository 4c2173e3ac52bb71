// Tests of LayerNorm and LayerNormGrad (core/ops/nn/layer_norm.cpp, layer_norm_grad.cpp,
// norm_kernel.cpp): values and gradients of the float32 / float16 kernels against the composed
// definition in float64. Finite-difference checks are in gradcheck_fused_cases.cpp.
// SPDX-License-Identifier: MIT
#include "ops/norm_ops.h"
#include "tests/core/ops/nn/fused_reference.h"
#include "tests/core/ops/nn/norm_composed.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

struct Case {
    Shape x, params;
    std::int64_t normAxis, paramsAxis;
};

TensorList inputsOf(const Case& c)
{
    return {sample(c.x, -3, 3, 1), sample(c.params, 0.5, 1.5, 2), sample(c.params, -1, 1, 3)};
}

} // namespace

TEST_CASE("LayerNorm in float32 matches the composed definition in float64")
{
    const double eps = 1e-5;
    for (const Case& c : {Case{{4, 6, 64}, {64}, -1, -1}, Case{{3, 5, 7}, {5, 7}, 1, 1}, Case{{3, 5, 7}, {7}, 1, 2},
                          Case{{3, 5, 7}, {5, 7}, 2, 1}}) {
        INFO("x " << c.x.toString() << " norm axis " << c.normAxis << " params axis " << c.paramsAxis);
        const TensorList in = inputsOf(c);
        const TensorList ref = layerNormComposed(in, c.normAxis, eps);
        const OutputList out = layerNorm(cast(in[0], DType::Float32), cast(in[1], DType::Float32),
                                         cast(in[2], DType::Float32), c.normAxis, c.paramsAxis, eps);
        CHECK(out[0].dtype() == DType::Float32);
        CHECK(maxDiff(out[0], ref[0]) < 1e-5);
        CHECK(maxDiff(out[1], ref[1]) < 1e-5);
        CHECK(maxDiff(out[2], ref[2]) < 1e-4);

        // Gradients of all three outputs (mean and variance too) against the composed ones.
        const auto fused = [&](const TensorList& v) {
            const OutputList o = layerNorm(v[0], v[1], v[2], c.normAxis, c.paramsAxis, eps);
            return add(reduceSum(mul(o[0], o[0])), reduceSum(mul(o[1], o[2])));
        };
        const auto composed = [&](const TensorList& v) {
            const TensorList o = layerNormComposed(v, c.normAxis, eps);
            return add(reduceSum(mul(o[0], o[0])), reduceSum(mul(o[1], o[2])));
        };
        const TensorList want = gradsOf(composed, in);
        const TensorList got = gradsOf(fused, castAll(in, DType::Float32));
        for (std::size_t i = 0; i < 3; ++i) {
            INFO("gradient " << i);
            CHECK(got[i].dtype() == DType::Float32);
            CHECK(maxDiff(got[i], want[i]) < 2e-4 * std::max(1.0, maxDiff(want[i], zerosLike(want[i]))));
        }
    }
}

TEST_CASE("LayerNorm in float64 is the composed definition to rounding, gradients included")
{
    const Case c{{2, 3, 16}, {16}, -1, -1};
    const TensorList in = inputsOf(c);
    const OutputList out = layerNorm(in[0], in[1], in[2], -1, -1, 1e-7);
    CHECK(maxDiff(out[0], layerNormComposed(in, -1, 1e-7)[0]) < 1e-12);
    const TensorList got = gradsOf([](const TensorList& v) { return layerNorm(v[0], v[1], v[2], -1, -1, 1e-7)[0]; }, in);
    const TensorList want = gradsOf([](const TensorList& v) { return layerNormComposed(v, -1, 1e-7)[0]; }, in);
    for (std::size_t i = 0; i < 3; ++i)
        CHECK(maxDiff(got[i], want[i]) < 1e-11);
}

TEST_CASE("LayerNorm in float16 computes in float32 and rounds once")
{
    const Case c{{2, 8, 32}, {32}, -1, -1};
    const TensorList in = castAll(castAll(inputsOf(c), DType::Float16), DType::Float64); // representable
    const OutputList out = layerNorm(cast(in[0], DType::Float16), cast(in[1], DType::Float16),
                                     cast(in[2], DType::Float16), -1, -1, 1e-5);
    CHECK(out[0].dtype() == DType::Float16);
    CHECK(maxDiff(out[0], layerNormComposed(in, -1, 1e-5)[0]) < 5e-3);
    const TensorList got =
        gradsOf([](const TensorList& v) { return layerNorm(v[0], v[1], v[2], -1, -1, 1e-5)[0]; }, castAll(in, DType::Float16));
    const TensorList want = gradsOf([](const TensorList& v) { return layerNormComposed(v, -1, 1e-5)[0]; }, in);
    CHECK(got[0].dtype() == DType::Float16);
    CHECK(maxDiff(got[0], want[0]) < 2e-2);
    CHECK(maxDiff(got[1], want[1]) < 5e-2 * std::max(1.0, maxDiff(want[1], zerosLike(want[1]))));
}

TEST_CASE("LayerNormGrad gives dx, dgamma and dbeta of the composed LayerNorm")
{
    const TensorList in = inputsOf({{5, 12}, {12}, -1, -1});
    const Tensor dy = sample({5, 12}, -1, 1, 9);
    const OutputList fwd = layerNorm(in[0], in[1], in[2], -1, -1, 1e-5);
    const OutputList g = layerNormGrad(in[0], dy, fwd[2], fwd[1], in[1], -1, -1, 1e-5);
    const TensorList want = gradsOf([](const TensorList& v) { return layerNormComposed(v, -1, 1e-5)[0]; }, in);
    // gradsOf weights the output by sample(.., 7); rebuild that cotangent for the direct call.
    const Tensor weight = sample({5, 12}, 0.5, 1.5, 7);
    const OutputList direct = layerNormGrad(in[0], weight, fwd[2], fwd[1], in[1], -1, -1, 1e-5);
    for (std::size_t i = 0; i < 3; ++i)
        CHECK(maxDiff(direct[i], want[i]) < 1e-12);
    CHECK(g[0].shape() == Shape{5, 12});
    CHECK(g[1].shape() == Shape{12});
}

TEST_CASE("LayerNorm checks gamma's shape and its inputs' dtypes")
{
    const Tensor x = Tensor::zeros({2, 3});
    CHECK_THROWS_AS(layerNorm(x, Tensor::zeros({2}), Tensor::zeros({2}), -1, -1, 1e-5), ShapeError);
    CHECK_THROWS_AS(layerNorm(x, Tensor::zeros({3}, DType::Float64), Tensor::zeros({3}), -1, -1, 1e-5), DTypeError);
    CHECK_THROWS_WITH(layerNorm(x, Tensor::zeros({3}), Tensor::zeros({3}), 2, -1, 1e-5), Catch::Contains("'LayerNorm'"));
}
