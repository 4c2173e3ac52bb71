// Gradient-check cases of the fused nn ops (softmax and cross-entropy gradients, LayerNorm,
// GroupNorm, BatchNorm, SiLU and their gradient ops), first and second order. Each op's output is combined
// with something that depends on the inputs again, so the second-order check exercises the
// backward rules' own backward rules. SPDX-License-Identifier: MIT
#include "tests/core/ops/gradcheck.h"
#include "ops/nn_grad_ops.h"
#include "ops/norm_ops.h"
#include "ops/ops.h"
#include "ops/silu_ops.h"

using namespace gradstep;
using namespace gradstep::testing;

namespace {

Tensor squared(const Tensor& y) { return mul(y, y); }

// LayerNorm's (y, mean, variance) all reach the result, so their cotangents all enter the rule.
Tensor useAll(const OutputList& o) { return add(reduceSum(squared(o[0])), reduceSum(mul(o[1], exp(o[2])))); }

// The gradient ops' outputs combined; their statistics come from LayerNorm / GroupNorm of x.
Tensor useGrads(const OutputList& g) { return add(reduceSum(squared(g[0])), reduceSum(mul(g[1], g[2]))); }

std::vector<GradCheckCase> softmaxCases()
{
    const Tensor labels = Tensor::fromVector<std::int32_t>({3}, {2, 0, 4});
    return {
        {"SoftmaxGrad", "last axis, as a function of y and dy",
         [](const TensorList& x) { return mul(softmaxGrad(x[0], x[1]), x[0]); },
         {sample({3, 4}, 0.05, 0.5, 61), sample({3, 4}, -1, 1, 62)}},
        {"SoftmaxGrad", "axis 1 of [2, 3, 2] (strided slices)",
         [](const TensorList& x) { return squared(softmaxGrad(x[0], x[1], 1)); },
         {sample({2, 3, 2}, 0.05, 0.5, 63), sample({2, 3, 2}, -1, 1, 64)}},
        {"LogSoftmaxGrad", "last axis, as a function of y and dy",
         [](const TensorList& x) { return mul(logSoftmaxGrad(x[0], x[1]), x[0]); },
         {sample({3, 4}, -3, -0.1, 65), sample({3, 4}, -1, 1, 66)}},
        {"LogSoftmaxGrad", "axis 0 of [3, 2] (strided slices)",
         [](const TensorList& x) { return squared(logSoftmaxGrad(x[0], x[1], 0)); },
         {sample({3, 2}, -3, -0.1, 67), sample({3, 2}, -1, 1, 68)}},
        {"SparseSoftmaxCrossEntropyWithLogitsGrad", "Int32 labels held constant, as a function of logits and g",
         [](const TensorList& x) { return squared(sparseSoftmaxCrossEntropyGrad(x[0], x[1], x[2])); },
         {sample({3, 5}, -2, 2, 69), labels, sample({3}, -1, 1, 70)}},
    };
}

std::vector<GradCheckCase> normCases()
{
    return {
        {"LayerNorm", "last axis of [3, 5]",
         [](const TensorList& x) { return mul(layerNorm(x[0], x[1], x[2], -1, -1, 1e-5)[0], x[0]); },
         {sample({3, 5}, -1, 1, 71), sample({5}, 0.5, 1.5, 72), sample({5}, -1, 1, 73)}},
        {"LayerNorm", "axes 1.. of [2, 3, 4], gamma over the last axis only; mean and variance used",
         [](const TensorList& x) { return useAll(layerNorm(x[0], x[1], x[2], 1, 2, 1e-3)); },
         {sample({2, 3, 4}, -1, 1, 74), sample({4}, 0.5, 1.5, 75), sample({4}, -1, 1, 76)}},
        {"LayerNormGrad", "statistics from LayerNorm of x, as a function of x, dy and gamma",
         [](const TensorList& x) {
             const OutputList o = layerNorm(x[0], x[2], zerosLike(x[2]), -1, -1, 1e-5);
             return useGrads(layerNormGrad(x[0], x[1], o[2], o[1], x[2], -1, -1, 1e-5));
         },
         {sample({3, 4}, -1, 1, 77), sample({3, 4}, -1, 1, 78), sample({4}, 0.5, 1.5, 79)}},
        {"LayerNormGrad", "with the cotangents of mean and variance",
         [](const TensorList& x) {
             const OutputList o = layerNorm(x[0], x[2], zerosLike(x[2]), 1, 1, 1e-5);
             return useGrads(layerNormGrad(x[0], x[1], o[2], o[1], x[2], 1, 1, 1e-5, x[3], x[4]));
         },
         {sample({2, 3}, -1, 1, 80), sample({2, 3}, -1, 1, 81), sample({3}, 0.5, 1.5, 82), sample({2, 1}, -1, 1, 83),
          sample({2, 1}, -1, 1, 84)}},
        {"GroupNorm", "[2, 4, 3] in 2 groups; mean and variance used",
         [](const TensorList& x) { return useAll(groupNorm(x[0], x[1], x[2], 2, 1e-5)); },
         {sample({2, 4, 3}, -1, 1, 85), sample({4}, 0.5, 1.5, 86), sample({4}, -1, 1, 87)}},
        {"GroupNorm", "[2, 3, 2, 2] with one channel per group (InstanceNorm)",
         [](const TensorList& x) { return mul(groupNorm(x[0], x[1], x[2], 3, 1e-5)[0], x[0]); },
         {sample({2, 3, 2, 2}, -1, 1, 88), sample({3}, 0.5, 1.5, 89), sample({3}, -1, 1, 90)}},
        {"GroupNormGrad", "statistics from GroupNorm of x, as a function of x, dy and gamma",
         [](const TensorList& x) {
             const OutputList o = groupNorm(x[0], x[2], zerosLike(x[2]), 2, 1e-5);
             return useGrads(groupNormGrad(x[0], x[1], o[2], o[1], x[2], 2, 1e-5));
         },
         {sample({2, 4, 2}, -1, 1, 91), sample({2, 4, 2}, -1, 1, 92), sample({4}, 0.5, 1.5, 93)}},
    };
}

std::vector<GradCheckCase> batchNormCases()
{
    const Tensor movingMean = sample({3}, -0.5, 0.5, 97), movingVar = sample({3}, 0.5, 1.5, 98);
    return {
        {"BatchNorm", "training on [3, 2, 2, 2]; batch mean and variance used",
         [](const TensorList& x) {
             return useAll(batchNorm(x[0], x[1], x[2], zerosLike(x[1]), zerosLike(x[1]), true, 1e-5));
         },
         {sample({3, 2, 2, 2}, -1, 1, 99), sample({2}, 0.5, 1.5, 100), sample({2}, -1, 1, 101)}},
        {"BatchNorm", "inference on [2, 3] with moving statistics held constant",
         [movingMean, movingVar](const TensorList& x) {
             return mul(batchNorm(x[0], x[1], x[2], movingMean, movingVar, false, 1e-3)[0], x[0]);
         },
         {sample({2, 3}, -1, 1, 102), sample({3}, 0.5, 1.5, 103), sample({3}, -1, 1, 104)}},
        {"BatchNormGrad", "training statistics from BatchNorm of x, as a function of dy, x and scale",
         [](const TensorList& x) {
             const Tensor zero = zerosLike(x[2]);
             const OutputList o = batchNorm(x[1], x[2], zero, zero, zero, true, 1e-5);
             return useGrads(batchNormGrad(x[0], x[1], x[2], o[1], o[2], true, 1e-5));
         },
         {sample({3, 2, 2}, -1, 1, 105), sample({3, 2, 2}, -1, 1, 106), sample({2}, 0.5, 1.5, 107)}},
    };
}

std::vector<GradCheckCase> siluCases()
{
    return {
        {"SiLU", "[3, 4] across both signs", [](const TensorList& x) { return mul(silu(x[0]), x[0]); },
         {sample({3, 4}, -4, 4, 94)}},
        {"SiLUGrad", "as a function of x and dy", [](const TensorList& x) { return squared(siluGrad(x[0], x[1])); },
         {sample({3, 4}, -4, 4, 95), sample({3, 4}, -1, 1, 96)}},
    };
}

std::vector<GradCheckCase> allCases()
{
    std::vector<GradCheckCase> cases;
    for (auto&& group : {softmaxCases(), normCases(), batchNormCases(), siluCases()})
        for (const GradCheckCase& c : group)
            cases.push_back(c);
    return cases;
}

const GradCheckRegistrar registrar(allCases());

} // namespace
