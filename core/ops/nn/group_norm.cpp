// group_norm (GroupNorm): (y, mean, variance) of x (N, C, ...) normalised per sample over groups of
// C / num_groups channels and their spatial axes, y scaled and shifted per channel by gamma and
// beta (C,); mean and variance (N, num_groups). One kernel (norm_kernel.h) and one node; the
// InstanceNorm layers are GroupNorm with one channel per group.
//   backward: one GroupNormGrad node, whose own gradient (norm_grad_vjp.h) gives higher orders.
// SPDX-License-Identifier: MIT
#include "ops/dispatch.h"
#include "ops/nn/common.h"
#include "ops/nn/fused_defs.h"
#include "ops/nn/norm_grad_vjp.h"
#include "ops/nn/norm_kernel.h"
#include "ops/norm_ops.h"

namespace gradstep {

void checkGroupNormShapes(const OpCall& call, std::size_t gammaInput)
{
    const Shape& x = call.input(0).shape();
    const std::int64_t groups = call.attrs.getInt("num_groups");
    if (x.rank() < 2)
        throwShapeError(call, "input_x must be (N, C, ...), got " + x.toString());
    if (groups <= 0 || x[1] % groups != 0)
        throwValueError(call, "num_groups must be positive and divide the channels " + std::to_string(x[1])
                                  + ", got " + std::to_string(groups));
    if (!(call.input(gammaInput).shape() == Shape{x[1]}))
        throwShapeError(call, "gamma must have shape (" + std::to_string(x[1]) + ",), got "
                                  + call.input(gammaInput).shape().toString());
}

namespace {
void inferGroupNorm(const OpCall& call, SpecList& out)
{
    requireFloatsOfOneDType(call, 3);
    checkGroupNormShapes(call, 1);
    if (!(call.input(2).shape() == call.input(1).shape()))
        throwShapeError(call, "beta must have gamma's shape, got " + call.input(2).shape().toString());
    const Shape& x = call.input(0).shape();
    const DType dtype = call.input(0).dtype();
    const Shape stats{x[0], call.attrs.getInt("num_groups")};
    out.push_back({x, dtype});
    out.push_back({stats, dtype});
    out.push_back({stats, dtype});
}

void forwardGroupNorm(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    const NormLayout layout = groupNormLayout(x.shape(), call.attrs.getInt("num_groups"));
    visitFloat(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        normForward<T>(x.data<T>(), call.input(1).data<T>(), call.input(2).data<T>(), outputs[0].data<T>(),
                       outputs[1].data<T>(), outputs[2].data<T>(), layout, call.attrs.getFloat("epsilon"));
    });
}

TensorList backwardGroupNorm(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const std::int64_t groups = ctx.attrs().getInt("num_groups");
    const double eps = ctx.attrs().getFloat("epsilon");
    const OutputList g = groupNormGrad(ctx.input(0), grads[0], ctx.output(2), ctx.output(1), ctx.input(1), groups,
                                       eps, contributes(grads[1]) ? grads[1] : Tensor(),
                                       contributes(grads[2]) ? grads[2] : Tensor());
    return {g[0], g[1], g[2]};
}
} // namespace

const OpDef kGroupNorm{"GroupNorm", "group_norm", OpKind::NN, 3, 3, inferGroupNorm, forwardGroupNorm,
                       backwardGroupNorm};

OutputList groupNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, std::int64_t groups, double epsilon)
{
    Attrs attrs;
    attrs.set("num_groups", groups);
    attrs.set("epsilon", epsilon);
    const Tensor inputs[] = {x, gamma, beta};
    return callOp(kGroupNorm, inputs, attrs);
}

} // namespace gradstep
