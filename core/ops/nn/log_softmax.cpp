// log_softmax (LogSoftmax): y_i = x_i - m - log sum_j exp(x_j - m) along `axis`, m the slice
// maximum (so exp never overflows and y never rounds to -Inf early).
//   dL/dx = G - exp(y) * sum_axis(G)       one LogSoftmaxGrad node over the saved output y (it
// was a Softmax, a sum and two full-size ops), differentiable again.
// A slice holding NaN or +Inf, or only -Inf, gives NaN.
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn_grad_ops.h"
#include "ops/nn_ops.h"

namespace gradstep {

namespace {
void forwardLogSoftmax(const OpCall& call, std::span<Tensor> outputs) { forwardSoftmaxLike(call, outputs, true); }

TensorList backwardLogSoftmax(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {logSoftmaxGrad(ctx.output(0), grads[0], ctx.attrs().getInt("axis", -1))};
}
} // namespace

const OpDef kLogSoftmax{"LogSoftmax", "log_softmax", OpKind::NN, 1, 1, inferSoftmaxLike, forwardLogSoftmax,
                        backwardLogSoftmax};

Tensor logSoftmax(const Tensor& x, std::int64_t axis)
{
    Attrs attrs;
    attrs.set("axis", axis);
    return callOp1(kLogSoftmax, {x}, attrs);
}

} // namespace gradstep
