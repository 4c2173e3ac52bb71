// softmax_grad (SoftmaxGrad) and log_softmax_grad (LogSoftmaxGrad): the gradients of Softmax and
// LogSoftmax along `axis` from the forward output y and the cotangent dy, one kernel each:
//   SoftmaxGrad:    dx = y * (dy - s),       s = sum_axis(dy * y)
//   LogSoftmaxGrad: dx = dy - exp(y) * t,    t = sum_axis(dy)
// Their own gradients (second order), for cotangent G, written with ops:
//   SoftmaxGrad:    d/dy' = SoftmaxGrad(y, G);  d/dy = G * (dy - s) - dy * sum_axis(G * y)
//   LogSoftmaxGrad: d/dy' = G - sum_axis(G * exp(y));  d/dy = -G * exp(y) * t
// (dy' the cotangent input, y the forward output).
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/nn/common.h"
#include "ops/nn/fused_defs.h"
#include "ops/nn/softmax_kernel.h"
#include "ops/nn_grad_ops.h"
#include "ops/reduction.h"

namespace gradstep {

namespace {
void inferSoftmaxGrad(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    requireFloat(call, 1);
    requireSameDType(call, 0, 1);
    if (!(call.input(0).shape() == call.input(1).shape()))
        throwShapeError(call, "expected y and dy of the same shape, got " + call.input(0).shape().toString()
                                  + " and " + call.input(1).shape().toString());
    normalizeAxis(call.attrs.getInt("axis", -1), call.input(0).rank(), call.op.name);
    out.push_back({call.input(0).shape(), call.input(0).dtype()});
}

void forwardGrad(const OpCall& call, std::span<Tensor> outputs, bool logOutput)
{
    const Tensor& y = call.input(0);
    const int axis = normalizeAxis(call.attrs.getInt("axis", -1), y.rank(), call.op.name);
    const AxisSplit split = splitAt(y.shape(), axis);
    visitFloat(y.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        softmaxBackward<T>(y.data<T>(), call.input(1).data<T>(), outputs[0].data<T>(), split, logOutput);
    });
}

void forwardSoftmaxGrad(const OpCall& call, std::span<Tensor> outputs) { forwardGrad(call, outputs, false); }
void forwardLogSoftmaxGrad(const OpCall& call, std::span<Tensor> outputs) { forwardGrad(call, outputs, true); }

TensorList backwardSoftmaxGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& y = ctx.input(0);
    const Tensor& dy = ctx.input(1);
    const Tensor& g = grads[0];
    const std::vector<std::int64_t> axes = softmaxAxes(ctx);
    const Tensor s = reduceSum(mul(dy, y), axes, true);
    const Tensor gy = reduceSum(mul(g, y), axes, true);
    return {sub(mul(g, sub(dy, s)), mul(dy, gy)), softmaxGrad(y, g, ctx.attrs().getInt("axis", -1))};
}

TensorList backwardLogSoftmaxGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& y = ctx.input(0);
    const Tensor& dy = ctx.input(1);
    const Tensor& g = grads[0];
    const std::vector<std::int64_t> axes = softmaxAxes(ctx);
    const Tensor p = exp(y);
    const Tensor t = reduceSum(dy, axes, true);
    return {neg(mul(mul(g, p), t)), sub(g, reduceSum(mul(g, p), axes, true))};
}

Tensor callGrad(const OpDef& op, const Tensor& y, const Tensor& dy, std::int64_t axis)
{
    Attrs attrs;
    attrs.set("axis", axis);
    return callOp1(op, {y, dy}, attrs);
}
} // namespace

const OpDef kSoftmaxGrad{"SoftmaxGrad", "softmax_grad", OpKind::NN, 2, 2,
                         inferSoftmaxGrad, forwardSoftmaxGrad, backwardSoftmaxGrad};
const OpDef kLogSoftmaxGrad{"LogSoftmaxGrad", "log_softmax_grad", OpKind::NN, 2, 2,
                            inferSoftmaxGrad, forwardLogSoftmaxGrad, backwardLogSoftmaxGrad};

Tensor softmaxGrad(const Tensor& y, const Tensor& dy, std::int64_t axis)
{
    return callGrad(kSoftmaxGrad, y, dy, axis);
}

Tensor logSoftmaxGrad(const Tensor& y, const Tensor& dy, std::int64_t axis)
{
    return callGrad(kLogSoftmaxGrad, y, dy, axis);
}

} // namespace gradstep
