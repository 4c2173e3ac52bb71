// Tests of GroupNorm and GroupNormGrad (core/ops/nn/group_norm.cpp, group_norm_grad.cpp,
// norm_kernel.cpp): values and gradients of the float32 / float16 kernels against the composed
// definition in float64, for groups of several channels and of one (InstanceNorm).
// SPDX-License-Identifier: MIT
#include "ops/norm_ops.h"
#include "tests/core/ops/nn/fused_reference.h"
#include "tests/core/ops/nn/norm_composed.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("GroupNorm in float32 matches the composed definition in float64")
{
    const double eps = 1e-5;
    for (const auto& [shape, groups] : {std::pair{Shape{4, 8, 5, 5}, std::int64_t{2}}, std::pair{Shape{3, 6, 7}, std::int64_t{6}},
                                        std::pair{Shape{2, 4}, std::int64_t{4}}, std::pair{Shape{2, 6, 3, 4}, std::int64_t{1}}}) {
        INFO("x " << shape.toString() << " groups " << groups);
        const TensorList in{sample(shape, -3, 3, 1), sample({shape[1]}, 0.5, 1.5, 2), sample({shape[1]}, -1, 1, 3)};
        const TensorList ref = groupNormComposed(in, groups, eps);
        const OutputList out = groupNorm(cast(in[0], DType::Float32), cast(in[1], DType::Float32),
                                         cast(in[2], DType::Float32), groups, eps);
        CHECK(out[1].shape() == Shape{shape[0], groups});
        CHECK(maxDiff(out[0], ref[0]) < 1e-5);
        CHECK(maxDiff(out[1], ref[1]) < 1e-5);
        CHECK(maxDiff(out[2], ref[2]) < 1e-4);
        const auto fused = [&](const TensorList& v) {
            const OutputList o = groupNorm(v[0], v[1], v[2], groups, eps);
            return add(reduceSum(mul(o[0], o[0])), reduceSum(mul(o[1], o[2])));
        };
        const auto composed = [&](const TensorList& v) {
            const TensorList o = groupNormComposed(v, groups, eps);
            return add(reduceSum(mul(o[0], o[0])), reduceSum(mul(o[1], o[2])));
        };
        const TensorList want = gradsOf(composed, in);
        const TensorList got = gradsOf(fused, castAll(in, DType::Float32));
        for (std::size_t i = 0; i < 3; ++i) {
            INFO("gradient " << i);
            CHECK(maxDiff(got[i], want[i]) < 2e-4 * std::max(1.0, maxDiff(want[i], zerosLike(want[i]))));
        }
    }
}

TEST_CASE("GroupNorm in float64 and float16")
{
    const TensorList in{sample({2, 4, 3, 3}, -3, 3, 4), sample({4}, 0.5, 1.5, 5), sample({4}, -1, 1, 6)};
    CHECK(maxDiff(groupNorm(in[0], in[1], in[2], 2, 1e-5)[0], groupNormComposed(in, 2, 1e-5)[0]) < 1e-12);
    const TensorList got = gradsOf([](const TensorList& v) { return groupNorm(v[0], v[1], v[2], 2, 1e-5)[0]; }, in);
    const TensorList want = gradsOf([](const TensorList& v) { return groupNormComposed(v, 2, 1e-5)[0]; }, in);
    for (std::size_t i = 0; i < 3; ++i)
        CHECK(maxDiff(got[i], want[i]) < 1e-11);
    const TensorList half = castAll(in, DType::Float16);
    const OutputList out = groupNorm(half[0], half[1], half[2], 2, 1e-5);
    CHECK(out[0].dtype() == DType::Float16);
    CHECK(maxDiff(out[0], groupNormComposed(castAll(half, DType::Float64), 2, 1e-5)[0]) < 5e-3);
}

TEST_CASE("GroupNorm checks the groups and gamma's shape")
{
    const Tensor x = Tensor::zeros({2, 6, 3});
    CHECK_THROWS_AS(groupNorm(x, Tensor::zeros({6}), Tensor::zeros({6}), 4, 1e-5), ValueError);
    CHECK_THROWS_AS(groupNorm(x, Tensor::zeros({3}), Tensor::zeros({3}), 3, 1e-5), ShapeError);
    CHECK_THROWS_WITH(groupNorm(Tensor::zeros({6}), Tensor::zeros({6}), Tensor::zeros({6}), 3, 1e-5),
                      Catch::Contains("'GroupNorm'"));
}
