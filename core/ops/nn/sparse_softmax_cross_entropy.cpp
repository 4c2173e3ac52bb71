// sparse_softmax_cross_entropy (SparseSoftmaxCrossEntropyWithLogits): per-sample loss of logits
// x (N, C) against class indices t (N,), Int32 or Int64:
//   loss_n = logsumexp(x_n) - x_n[t_n] = (m - x_n[t_n]) + log sum_j exp(x_nj - m), m the row maximum
//   dL/dx  = (softmax(x) - onehot(t)) * G[:, None]      (one SparseSoftmaxCrossEntropyWithLogitsGrad
//                                                        node; composed it was 5 full-size ops)
// Labels get no gradient. A label outside [0, C) is an IndexError naming the label and its row.
// This is nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='none'), shape (N,) as in its
// example (SEMANTICS.md §7.1); MindSpore's primitive of this name returns the batch mean instead.
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/class_labels.h"
#include "ops/nn/defs.h"
#include "ops/nn/softmax_kernel.h"
#include "ops/nn_grad_ops.h"
#include "ops/nn_ops.h"

namespace gradstep {

namespace {
void inferSparseCrossEntropy(const OpCall& call, SpecList& out)
{
    const Shape& logits = call.input(0).shape();
    const Shape& labels = call.input(1).shape();
    requireFloat(call, 0);
    const DType labelType = call.input(1).dtype();
    if (labelType != DType::Int32 && labelType != DType::Int64)
        throwInputDType(call, 1, kIndexDTypes);
    if (logits.rank() != 2 || labels.rank() != 1 || labels[0] != logits[0])
        throwShapeError(call, "expected logits (N, C) and labels (N,), got logits " + logits.toString()
                                  + " and labels " + labels.toString());
    out.push_back({labels, call.input(0).dtype()});
}

void forwardSparseCrossEntropy(const OpCall& call, std::span<Tensor> outputs)
{
    const std::vector<std::int64_t> labels = readClassLabels(call);
    const Tensor& logits = call.input(0);
    const std::int64_t classes = logits.shape()[1];
    visitFloat(logits.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* x = logits.data<T>();
        T* loss = outputs[0].data<T>();
        for (std::size_t n = 0; n < labels.size(); ++n) {
            const T* row = x + static_cast<std::int64_t>(n) * classes;
            const LogSumExp<T> lse = logSumExp(row, classes);
            loss[n] = (lse.max - row[labels[n]]) + lse.logSum;
        }
    });
}

TensorList backwardSparseCrossEntropy(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {sparseSoftmaxCrossEntropyGrad(ctx.input(0), ctx.input(1), grads[0]), Tensor()};
}
} // namespace

const OpDef kSparseSoftmaxCrossEntropyWithLogits{"SparseSoftmaxCrossEntropyWithLogits",
                                                 "sparse_softmax_cross_entropy", OpKind::Loss, 2, 2,
                                                 inferSparseCrossEntropy, forwardSparseCrossEntropy,
                                                 backwardSparseCrossEntropy, false, 0b01};

Tensor sparseSoftmaxCrossEntropy(const Tensor& logits, const Tensor& labels)
{
    return callOp1(kSparseSoftmaxCrossEntropyWithLogits, {logits, labels});
}

} // namespace gradstep
