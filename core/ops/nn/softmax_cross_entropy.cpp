// softmax_cross_entropy (SoftmaxCrossEntropyWithLogits): per-sample loss of logits x (N, C)
// against dense labels t (N, C) of the same dtype (probabilities or one-hot rows):
//   loss_n = sum_j t_nj * (logsumexp(x_n) - x_nj)     (logsumexp with the row maximum subtracted;
//                                                     a zero label skips its term, even at x = -Inf)
//   dL/dx  = (softmax(x) * sum_j t_nj - t) * G[:, None]
// which is MindSpore's (softmax(x) - t) * G when each label row sums to 1. Labels get no gradient,
// as MindSpore's bprop returns zeros for them. Output (N,): nn.SoftmaxCrossEntropyWithLogits with
// reduction='none' (SEMANTICS.md §7.1).
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn/softmax_kernel.h"
#include "ops/nn_ops.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

namespace gradstep {

namespace {
void inferCrossEntropy(const OpCall& call, SpecList& out)
{
    const Shape& logits = call.input(0).shape();
    const Shape& labels = call.input(1).shape();
    requireFloat(call, 0);
    requireFloat(call, 1);
    requireSameDType(call, 0, 1);
    if (logits.rank() != 2 || !(labels == logits))
        throwShapeError(call, "expected logits (N, C) and labels of the same shape, got logits "
                                  + logits.toString() + " and labels " + labels.toString());
    out.push_back({Shape{logits[0]}, call.input(0).dtype()});
}

void forwardCrossEntropy(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& logits = call.input(0);
    const std::int64_t rows = logits.shape()[0], classes = logits.shape()[1];
    visitFloat(logits.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* x = logits.data<T>();
        const T* t = call.input(1).data<T>();
        T* loss = outputs[0].data<T>();
        for (std::int64_t n = 0; n < rows; ++n) {
            const T* row = x + n * classes;
            const T* label = t + n * classes;
            const LogSumExp<T> lse = logSumExp(row, classes);
            T sum = 0;
            for (std::int64_t j = 0; j < classes; ++j)
                sum += label[j] == T(0) ? T(0) : label[j] * ((lse.max - row[j]) + lse.logSum);
            loss[n] = sum;
        }
    });
}

TensorList backwardCrossEntropy(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& logits = ctx.input(0);
    const Tensor& labels = ctx.input(1);
    const Tensor mass = reduceSum(labels, {1}, true);
    const Tensor diff = sub(mul(softmax(logits, -1), mass), labels);
    return {mul(diff, reshape(grads[0], {logits.shape()[0], 1})), Tensor()};
}
} // namespace

const OpDef kSoftmaxCrossEntropyWithLogits{"SoftmaxCrossEntropyWithLogits", "softmax_cross_entropy", OpKind::Loss,
                                           2, 2, inferCrossEntropy, forwardCrossEntropy, backwardCrossEntropy,
                                           false, 0b01};

Tensor softmaxCrossEntropy(const Tensor& logits, const Tensor& labels)
{
    return callOp1(kSoftmaxCrossEntropyWithLogits, {logits, labels});
}

} // namespace gradstep
