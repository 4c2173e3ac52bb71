// sparse_softmax_cross_entropy_grad (SparseSoftmaxCrossEntropyWithLogitsGrad): the gradient of
// SparseSoftmaxCrossEntropyWithLogits with respect to logits x (N, C), in one kernel per row,
//   dx_n = (softmax(x_n) - onehot(t_n)) * g_n          (t Int32 / Int64 labels, g the cotangent (N,))
// where the composed rule built a OneHot, a Softmax, an add and a broadcast multiply. Its own
// gradient (second order), for cotangent G, written with ops:
//   d/dx = SoftmaxGrad(softmax(x), G) * g[:, None];   d/dg = sum_j G_nj * (softmax(x) - onehot(t))_nj
// Labels get no gradient. SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/nn/class_labels.h"
#include "ops/nn/common.h"
#include "ops/nn/fused_defs.h"
#include "ops/nn/softmax_kernel.h"
#include "ops/nn_grad_ops.h"
#include "ops/nn_ops.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

namespace gradstep {

namespace {
void inferGrad(const OpCall& call, SpecList& out)
{
    const Shape& logits = call.input(0).shape();
    requireFloat(call, 0);
    requireFloat(call, 2);
    requireSameDType(call, 0, 2);
    const DType labelType = call.input(1).dtype();
    if (labelType != DType::Int32 && labelType != DType::Int64)
        throwInputDType(call, 1, kIndexDTypes);
    const Shape& labels = call.input(1).shape();
    if (logits.rank() != 2 || labels.rank() != 1 || labels[0] != logits[0] || !(call.input(2).shape() == labels))
        throwShapeError(call, "expected logits (N, C), labels (N,) and gradient (N,), got " + logits.toString()
                                  + ", " + labels.toString() + " and " + call.input(2).shape().toString());
    out.push_back({logits, call.input(0).dtype()});
}

void forwardGrad(const OpCall& call, std::span<Tensor> outputs)
{
    const std::vector<std::int64_t> labels = readClassLabels(call);
    const Tensor& logits = call.input(0);
    const std::int64_t rows = logits.shape()[0], classes = logits.shape()[1];
    visitFloat(logits.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* g = call.input(2).data<T>();
        T* dx = outputs[0].data<T>();
        softmaxForward<T>(logits.data<T>(), dx, AxisSplit{rows, classes, 1}, false);
        for (std::int64_t n = 0; n < rows; ++n) {
            T* row = dx + n * classes;
            row[labels[static_cast<std::size_t>(n)]] -= T(1);
            const T scale = g[n];
            for (std::int64_t j = 0; j < classes; ++j)
                row[j] *= scale;
        }
    });
}

TensorList backwardGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& logits = ctx.input(0);
    const Tensor& g = ctx.input(2);
    const std::int64_t rows = logits.shape()[0];
    const Tensor p = softmax(logits, -1);
    // -onehot(labels) through the OneHot op, so the rule also traces into graph mode.
    const Tensor negativeOneHot = oneHot(ctx.input(1), logits.shape()[1], -1.0, 0.0, -1, logits.dtype());
    const Tensor dLogits = mul(softmaxGrad(p, grads[0], -1), reshape(g, {rows, 1}));
    const Tensor dG = reduceSum(mul(grads[0], add(p, negativeOneHot)), {1});
    return {dLogits, Tensor(), dG};
}
} // namespace

const OpDef kSparseSoftmaxCrossEntropyWithLogitsGrad{"SparseSoftmaxCrossEntropyWithLogitsGrad",
                                                     "sparse_softmax_cross_entropy_grad", OpKind::Loss, 3, 3,
                                                     inferGrad, forwardGrad, backwardGrad, false, 0b101};

Tensor sparseSoftmaxCrossEntropyGrad(const Tensor& logits, const Tensor& labels, const Tensor& g)
{
    return callOp1(kSparseSoftmaxCrossEntropyWithLogitsGrad, {logits, labels, g});
}

} // namespace gradstep
