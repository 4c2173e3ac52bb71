// Tests of BatchNorm and BatchNormGrad (core/ops/nn/batch_norm.cpp, batch_norm_grad.cpp,
// batch_norm_kernel.cpp): values and gradients in training and inference against the composed
// definition in float64. SPDX-License-Identifier: MIT
#include "ops/norm_ops.h"
#include "tests/core/ops/nn/fused_reference.h"
#include "tests/core/ops/nn/norm_composed.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("BatchNorm in float32 matches the composed definition in float64")
{
    for (const Shape& shape : {Shape{8, 5, 6, 7}, Shape{16, 3}, Shape{4, 6, 9}})
        for (bool training : {true, false}) {
            INFO("x " << shape.toString() << (training ? " training" : " inference"));
            const Shape c{shape[1]};
            const TensorList in{sample(shape, -3, 3, 1), sample(c, 0.5, 1.5, 2), sample(c, -1, 1, 3),
                                sample(c, -0.5, 0.5, 4), sample(c, 0.5, 2, 5)};
            const TensorList ref = batchNormComposed(in, training, 1e-5);
            const TensorList in32 = castAll(in, DType::Float32);
            const OutputList out = batchNorm(in32[0], in32[1], in32[2], in32[3], in32[4], training, 1e-5);
            CHECK(maxDiff(out[0], ref[0]) < 1e-5);
            CHECK(maxDiff(out[1], ref[1]) < 1e-5);
            CHECK(maxDiff(out[2], ref[2]) < 1e-4);
            const auto use = [](const TensorList& o) { return add(reduceSum(mul(o[0], o[0])), reduceSum(mul(o[1], o[2]))); };
            const TensorList want = gradsOf(
                [&](const TensorList& v) { return use(batchNormComposed({v[0], v[1], v[2], in[3], in[4]}, training, 1e-5)); },
                {in[0], in[1], in[2]});
            const TensorList got = gradsOf(
                [&](const TensorList& v) {
                    const OutputList o = batchNorm(v[0], v[1], v[2], in32[3], in32[4], training, 1e-5);
                    return use(TensorList{o[0], o[1], o[2]});
                },
                {in32[0], in32[1], in32[2]});
            for (std::size_t i = 0; i < 3; ++i) {
                INFO("gradient " << i);
                CHECK(maxDiff(got[i], want[i]) < 2e-4 * std::max(1.0, maxDiff(want[i], zerosLike(want[i]))));
            }
        }
}

TEST_CASE("BatchNorm in float64 and float16")
{
    const TensorList in{sample({4, 3, 5}, -3, 3, 6), sample({3}, 0.5, 1.5, 7), sample({3}, -1, 1, 8),
                        Tensor::zeros({3}, DType::Float64), Tensor::full({3}, 1.0, DType::Float64)};
    CHECK(maxDiff(batchNorm(in[0], in[1], in[2], in[3], in[4], true, 1e-5)[0], batchNormComposed(in, true, 1e-5)[0])
          < 1e-12);
    const TensorList half = castAll(in, DType::Float16);
    const OutputList out = batchNorm(half[0], half[1], half[2], half[3], half[4], true, 1e-5);
    CHECK(out[0].dtype() == DType::Float16);
    CHECK(maxDiff(out[0], batchNormComposed(castAll(half, DType::Float64), true, 1e-5)[0]) < 5e-3);
}

TEST_CASE("BatchNorm gives its moving statistics no gradient and checks shapes")
{
    const Tensor x = sample({4, 3}, -1, 1, 9);
    const Tensor c = Tensor::full({3}, 1.0, DType::Float64);
    // Four tensors: one tensor at several positions would be one input (Note [Inputs by identity]).
    const auto ones = [] { return Tensor::full({3}, 1.0, DType::Float64); };
    const TensorList g = gradsOf(
        [](const TensorList& v) { return batchNorm(v[0], v[1], v[2], v[3], v[4], false, 1e-5)[0]; },
        {x, ones(), ones(), ones(), ones()});
    CHECK(maxDiff(g[3], zerosLike(c)) == 0.0);
    CHECK(maxDiff(g[4], zerosLike(c)) == 0.0);
    CHECK_THROWS_AS(batchNorm(x, Tensor::zeros({2}, DType::Float64), c, c, c, true, 1e-5), ShapeError);
    CHECK_THROWS_WITH(batchNorm(Tensor::zeros({3}), c, c, c, c, true, 1e-5), Catch::Contains("'BatchNorm'"));
}
