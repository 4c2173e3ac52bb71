// batch_norm_grad (BatchNormGrad): (dx, dscale, dbias) of BatchNorm from the cotangent dy, x,
// scale and the saved (batch or given) mean and variance, one kernel (batch_norm_kernel.h).
// Inputs (dy, x, scale, mean, variance[, dmean, dvariance]): MindSpore's order, its reserve input
// left out, and, as LayerNormGrad's, the cotangents of BatchNorm's statistics outputs when a
// script differentiates through them.
//   backward (second order): with respect to every input, written with ops (norm_grad_vjp.h): each
//   channel is a row over the batch and spatial axes; outside training mean and variance are
//   constants and get none.
// SPDX-License-Identifier: MIT
#include "ops/dispatch.h"
#include "ops/nn/batch_norm_kernel.h"
#include "ops/nn/common.h"
#include "ops/nn/fused_defs.h"
#include "ops/nn/norm_grad_vjp.h"
#include "ops/norm_ops.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

namespace gradstep {

namespace {
void inferBatchNormGrad(const OpCall& call, SpecList& out)
{
    checkBatchNormShapes(call, {2, 3, 4, 5, 6}, 1);
    if (!(call.input(0).shape() == call.input(1).shape()))
        throwShapeError(call, "dy must have input_x's shape " + call.input(1).shape().toString() + ", got "
                                  + call.input(0).shape().toString());
    const DType dtype = call.input(0).dtype();
    out.push_back({call.input(1).shape(), dtype});
    out.push_back({call.input(2).shape(), dtype});
    out.push_back({call.input(2).shape(), dtype});
}

void forwardBatchNormGrad(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(1);
    const bool extra = call.inputs.size() == 7;
    visitFloat(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        batchNormBackward<T>(call.input(0).data<T>(), x.data<T>(), call.input(2).data<T>(), call.input(3).data<T>(),
                             call.input(4).data<T>(), extra ? call.input(5).data<T>() : nullptr,
                             extra ? call.input(6).data<T>() : nullptr, outputs[0].data<T>(), outputs[1].data<T>(),
                             outputs[2].data<T>(), batchLayout(x.shape()), call.attrs.getFloat("epsilon"),
                             call.attrs.getBool("is_training", false));
    });
}

NormRows batchNormRows(const Shape& x, bool training)
{
    NormRows rows;
    std::vector<std::int64_t> channel(static_cast<std::size_t>(x.rank()), 1), others{0};
    channel[1] = x[1];
    rows.length = static_cast<double>(x[0]);
    for (int a = 2; a < x.rank(); ++a) {
        others.push_back(a);
        rows.length *= static_cast<double>(x[a]);
    }
    const std::int64_t c = x[1];
    const auto same = [](const Tensor& t) { return t; };
    rows.toView = rows.fromView = same;
    rows.rowSum = [others](const Tensor& t) { return reduceSum(t, others, true); };
    rows.stats = rows.gammaFull = [channel](const Tensor& t) { return reshape(t, channel); };
    rows.statsBack = [c](const Tensor& t) { return reshape(t, {c}); };
    rows.gammaBack = [others](const Tensor& t) { return reduceSum(t, others); };
    rows.batchStats = training;
    return rows;
}

TensorList backwardBatchNormGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const bool extra = ctx.inputCount() == 7;
    // Inputs (dy, x, scale, mean, variance[, dmean, dvariance]) in normGradVjp's order.
    const NormGradInputs in{ctx.input(1), ctx.input(0), ctx.input(4), ctx.input(3), ctx.input(2),
                            extra ? ctx.input(5) : Tensor(), extra ? ctx.input(6) : Tensor()};
    const TensorList d =
        normGradVjp(batchNormRows(ctx.input(1).shape(), ctx.attrs().getBool("is_training", false)), in, grads[0],
                    grads[1], grads[2], ctx.attrs().getFloat("epsilon"));
    TensorList result{d[1], d[0], d[4], d[3], d[2]};
    if (extra) {
        result.push_back(d[5]);
        result.push_back(d[6]);
    }
    return result;
}
} // namespace

const OpDef kBatchNormGrad{"BatchNormGrad", "batch_norm_grad", OpKind::NN, 5, 7, inferBatchNormGrad,
                           forwardBatchNormGrad, backwardBatchNormGrad};

OutputList batchNormGrad(const Tensor& dy, const Tensor& x, const Tensor& scale, const Tensor& mean,
                         const Tensor& variance, bool training, double epsilon, const Tensor& dmean,
                         const Tensor& dvariance)
{
    Attrs attrs;
    attrs.set("is_training", training);
    attrs.set("epsilon", epsilon);
    return callNormGrad(kBatchNormGrad, {dy, x, scale, mean, variance}, mean, variance, dmean, dvariance, attrs);
}

} // namespace gradstep
