// softmax (Softmax): y_i = exp(x_i - m) / sum_j exp(x_j - m) along `axis`, m the slice maximum
// (subtracting it changes nothing mathematically and keeps exp from overflowing).
//   dL/dx = y * (G - sum_axis(G * y))      one SoftmaxGrad node over the saved output y (a
// kernel of one pass for the sum and one for dx; composed it was 4 full-size ops), which is
// differentiable again. A slice holding NaN or +Inf, or only -Inf, gives NaN.
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn/softmax_kernel.h"
#include "ops/nn_grad_ops.h"
#include "ops/nn_ops.h"

namespace gradstep {

void inferSoftmaxLike(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    normalizeAxis(call.attrs.getInt("axis", -1), call.input(0).rank(), call.op.name);
    out.push_back({call.input(0).shape(), call.input(0).dtype()});
}

void forwardSoftmaxLike(const OpCall& call, std::span<Tensor> outputs, bool logOutput)
{
    const Tensor& x = call.input(0);
    const int axis = normalizeAxis(call.attrs.getInt("axis", -1), x.rank(), call.op.name);
    const AxisSplit split = splitAt(x.shape(), axis);
    visitFloat(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        softmaxForward<T>(x.data<T>(), outputs[0].data<T>(), split, logOutput);
    });
}

std::vector<std::int64_t> softmaxAxes(const BackwardContext& ctx)
{
    if (ctx.input(0).rank() == 0)
        return {};
    return {ctx.attrs().getInt("axis", -1)};
}

namespace {
void forwardSoftmax(const OpCall& call, std::span<Tensor> outputs) { forwardSoftmaxLike(call, outputs, false); }

TensorList backwardSoftmax(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {softmaxGrad(ctx.output(0), grads[0], ctx.attrs().getInt("axis", -1))};
}
} // namespace

const OpDef kSoftmax{"Softmax", "softmax", OpKind::NN, 1, 1, inferSoftmaxLike, forwardSoftmax, backwardSoftmax};

Tensor softmax(const Tensor& x, std::int64_t axis)
{
    Attrs attrs;
    attrs.set("axis", axis);
    return callOp1(kSoftmax, {x}, attrs);
}

} // namespace gradstep
