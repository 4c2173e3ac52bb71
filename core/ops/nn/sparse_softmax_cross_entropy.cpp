// sparse_softmax_cross_entropy (SparseSoftmaxCrossEntropyWithLogits): per-sample loss of logits
// x (N, C) against class indices t (N,), Int32 or Int64:
//   loss_n = logsumexp(x_n) - x_n[t_n] = (m - x_n[t_n]) + log sum_j exp(x_nj - m), m the row maximum
//   dL/dx  = (softmax(x) - onehot(t)) * G[:, None]      (written with the Softmax op)
// Labels get no gradient. A label outside [0, C) is an IndexError naming the label and its row.
// This is nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='none'), shape (N,) as in its
// example (SEMANTICS.md §7.1); MindSpore's primitive of this name returns the batch mean instead.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn/softmax_kernel.h"
#include "ops/nn_ops.h"
#include "ops/shape_ops.h"

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

std::vector<std::int64_t> readLabels(const OpCall& call)
{
    const Tensor& labels = call.input(1);
    const std::int64_t classes = call.input(0).shape()[1];
    std::vector<std::int64_t> values(static_cast<std::size_t>(labels.numel()));
    for (std::size_t n = 0; n < values.size(); ++n) {
        const auto i = static_cast<std::int64_t>(n);
        values[n] = labels.dtype() == DType::Int32 ? labels.data<std::int32_t>()[i] : labels.data<std::int64_t>()[i];
        if (values[n] < 0 || values[n] >= classes)
            throw IndexError("for '" + std::string(call.op.name) + "', label " + std::to_string(values[n])
                             + " of sample " + std::to_string(n) + " is out of range [0, " + std::to_string(classes)
                             + ") (" + call.describe() + ")");
    }
    return values;
}

void forwardSparseCrossEntropy(const OpCall& call, std::span<Tensor> outputs)
{
    const std::vector<std::int64_t> labels = readLabels(call);
    const Tensor& logits = call.input(0);
    const std::int64_t classes = logits.shape()[1];
    visitFloat(logits.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* x = logits.data<T>();
        T* loss = outputs[0].data<T>();
        for (std::size_t n = 0; n < labels.size(); ++n) {
            const T* row = x + static_cast<std::int64_t>(n) * classes;
            const LogSumExp<T> lse = logSumExp(row, classes, 1);
            loss[n] = (lse.max - row[labels[n]]) + lse.logSum;
        }
    });
}

TensorList backwardSparseCrossEntropy(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& logits = ctx.input(0);
    // -onehot(labels) through the OneHot op (not a loop over label values), so the rule also
    // traces into graph mode, where labels have no values yet.
    const Tensor negativeOneHot = oneHot(ctx.input(1), logits.shape()[1], -1.0, 0.0, -1, logits.dtype());
    const Tensor diff = add(softmax(logits, -1), negativeOneHot);
    return {mul(diff, reshape(grads[0], {logits.shape()[0], 1})), Tensor()};
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
