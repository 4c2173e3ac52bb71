// Tests of the vectorised softmax kernels (core/ops/nn/softmax_kernel.cpp) and the fused gradient
// ops SoftmaxGrad, LogSoftmaxGrad and SparseSoftmaxCrossEntropyWithLogitsGrad (softmax_grad.cpp,
// sparse_softmax_cross_entropy_grad.cpp): float32 and float16 against float64 references.
// Finite-difference checks are in gradcheck_fused_cases.cpp. SPDX-License-Identifier: MIT
#include "ops/nn_grad_ops.h"
#include "tests/core/ops/nn/fused_reference.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

// softmax along `axis` in float64, element by element (no kernel of the op under test).
Tensor referenceSoftmax(const Tensor& x, int axis, bool log)
{
    const Tensor m = reduceMax(x, {axis}, true);
    const Tensor e = exp(sub(x, m));
    const Tensor s = reduceSum(e, {axis}, true);
    return log ? sub(sub(x, m), gradstep::log(s)) : div(e, s);
}

} // namespace

TEST_CASE("vectorised softmax and log_softmax match float64 along last and inner axes")
{
    // 33 and 7: lengths that are not a multiple of any SIMD width.
    const Tensor x = sample({4, 7, 33}, -20, 20, 1);
    for (int axis : {2, 1, 0})
        for (bool log : {false, true}) {
            INFO("axis " << axis << (log ? " log_softmax" : " softmax"));
            const Tensor want = referenceSoftmax(x, axis, log);
            const Tensor x32 = cast(x, DType::Float32);
            const Tensor got = log ? logSoftmax(x32, axis) : softmax(x32, axis);
            CHECK(got.dtype() == DType::Float32);
            CHECK(maxDiff(got, want) < (log ? 1e-5 : 1e-6));
            CHECK(maxDiff(log ? logSoftmax(x, axis) : softmax(x, axis), want) < 1e-13);
            const Tensor half = log ? logSoftmax(cast(x, DType::Float16), axis) : softmax(cast(x, DType::Float16), axis);
            CHECK(half.dtype() == DType::Float16);
            CHECK(maxDiff(half, referenceSoftmax(cast(cast(x, DType::Float16), DType::Float64), axis, log)) < 2e-2);
        }
}

TEST_CASE("softmax of a row with -inf entries gives them zero")
{
    const Tensor y = softmax(Tensor::fromDoubles({1, 3}, {-INFINITY, 0, 0}));
    CHECK(y.at(0) == 0.0);
    CHECK(y.at(1) == Approx(0.5));
    CHECK(std::isnan(softmax(Tensor::fromDoubles({1, 2}, {INFINITY, 0})).at(1)));
}

TEST_CASE("SoftmaxGrad and LogSoftmaxGrad match their formulas in float64")
{
    const Tensor x = sample({5, 6, 19}, -4, 4, 2);
    const Tensor dy = sample({5, 6, 19}, -1, 1, 3);
    for (int axis : {2, 1}) {
        INFO("axis " << axis);
        const Tensor y = softmax(x, axis);
        const Tensor wantSoftmax = mul(y, sub(dy, reduceSum(mul(dy, y), {axis}, true)));
        const Tensor logY = logSoftmax(x, axis);
        const Tensor wantLog = sub(dy, mul(exp(logY), reduceSum(dy, {axis}, true)));
        CHECK(maxDiff(softmaxGrad(y, dy, axis), wantSoftmax) < 1e-14);
        CHECK(maxDiff(logSoftmaxGrad(logY, dy, axis), wantLog) < 1e-14);
        CHECK(maxDiff(softmaxGrad(cast(y, DType::Float32), cast(dy, DType::Float32), axis), wantSoftmax) < 1e-6);
        CHECK(maxDiff(logSoftmaxGrad(cast(logY, DType::Float32), cast(dy, DType::Float32), axis), wantLog) < 1e-5);
    }
}

TEST_CASE("the gradients of Softmax and LogSoftmax come from the fused ops in float32")
{
    const Tensor x = sample({8, 50}, -5, 5, 4);
    for (bool log : {false, true}) {
        const auto fn = [log](const TensorList& v) { return log ? logSoftmax(v[0]) : softmax(v[0]); };
        const TensorList want = gradsOf(fn, {x});
        const TensorList got = gradsOf(fn, {cast(x, DType::Float32)});
        CHECK(maxDiff(got[0], want[0]) < 1e-5);
    }
}

TEST_CASE("SparseSoftmaxCrossEntropyWithLogitsGrad is (softmax - onehot) * g")
{
    const Tensor logits = sample({6, 11}, -5, 5, 5);
    const Tensor labels = Tensor::fromVector<std::int64_t>({6}, {0, 10, 3, 3, 7, 1});
    const Tensor g = sample({6}, -1, 1, 6);
    const Tensor want = mul(sub(softmax(logits), oneHot(labels, 11, 1.0, 0.0, -1, DType::Float64)), reshape(g, {6, 1}));
    CHECK(maxDiff(sparseSoftmaxCrossEntropyGrad(logits, labels, g), want) < 1e-14);
    CHECK(maxDiff(sparseSoftmaxCrossEntropyGrad(cast(logits, DType::Float32), labels, cast(g, DType::Float32)), want)
          < 1e-6);
    // The loss's backward goes through it: the gradient of sum(loss * w) is the op with g = w.
    const TensorList got = gradsOf([&](const TensorList& v) { return sparseSoftmaxCrossEntropy(v[0], labels); },
                                   {cast(logits, DType::Float32)});
    const Tensor weight = sample({6}, 0.5, 1.5, 7);
    CHECK(maxDiff(got[0], sparseSoftmaxCrossEntropyGrad(logits, labels, weight)) < 1e-6);
    CHECK_THROWS_AS(sparseSoftmaxCrossEntropyGrad(logits, Tensor::fromVector<std::int64_t>({6}, {0, 11, 0, 0, 0, 0}), g),
                    IndexError);
    CHECK_THROWS_AS(sparseSoftmaxCrossEntropyGrad(logits, labels, sample({5}, -1, 1, 6)), ShapeError);
}
