// layer_norm (LayerNorm): MindSpore's primitive, (y, mean, variance) of x normalised over the axes
// from begin_norm_axis, y = (x - mean) * rsqrt(variance + epsilon) * gamma + beta with gamma, beta
// shaped like x from begin_params_axis; one kernel (norm_kernel.h) and one node.
//   backward: one LayerNormGrad node (dx, dgamma, dbeta in one pass per row), whose own gradient
//   (norm_grad_vjp.h) gives the second and higher orders.
// SPDX-License-Identifier: MIT
#include "ops/dispatch.h"
#include "ops/nn/common.h"
#include "ops/nn/fused_defs.h"
#include "ops/nn/norm_grad_vjp.h"
#include "ops/nn/norm_kernel.h"
#include "ops/norm_ops.h"

namespace gradstep {

namespace {
void inferLayerNorm(const OpCall& call, SpecList& out)
{
    const Shape& x = call.input(0).shape();
    for (std::size_t i = 0; i < 3; ++i)
        requireFloat(call, i);
    requireSameDType(call, 0, 1);
    requireSameDType(call, 0, 2);
    if (x.rank() == 0)
        throwShapeError(call, "input_x must have at least one dimension");
    const int normAxis = normalizeAxis(call.attrs.getInt("begin_norm_axis"), x.rank(), call.op.name);
    const int paramsAxis = normalizeAxis(call.attrs.getInt("begin_params_axis"), x.rank(), call.op.name);
    const Shape params(std::vector<std::int64_t>(x.dims().begin() + paramsAxis, x.dims().end()));
    if (!(call.input(1).shape() == params) || !(call.input(2).shape() == params))
        throwShapeError(call, "gamma and beta must have the shape of input_x from begin_params_axis, "
                              + params.toString() + ", got " + call.input(1).shape().toString() + " and "
                              + call.input(2).shape().toString());
    std::vector<std::int64_t> stats = x.toVector();
    for (int a = normAxis; a < x.rank(); ++a)
        stats[static_cast<std::size_t>(a)] = 1;
    const DType dtype = call.input(0).dtype();
    out.push_back({x, dtype});
    out.push_back({Shape(stats), dtype});
    out.push_back({Shape(stats), dtype});
}

void forwardLayerNorm(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    const NormLayout layout = layerNormLayout(x.shape(), call.attrs.getInt("begin_norm_axis"), call.input(1).numel());
    visitFloat(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        normForward<T>(x.data<T>(), call.input(1).data<T>(), call.input(2).data<T>(), outputs[0].data<T>(),
                       outputs[1].data<T>(), outputs[2].data<T>(), layout, call.attrs.getFloat("epsilon"));
    });
}

TensorList backwardLayerNorm(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Attrs& attrs = ctx.attrs();
    const std::int64_t normAxis = attrs.getInt("begin_norm_axis"), paramsAxis = attrs.getInt("begin_params_axis");
    const double eps = attrs.getFloat("epsilon");
    const OutputList g = layerNormGrad(ctx.input(0), grads[0], ctx.output(2), ctx.output(1), ctx.input(1), normAxis,
                                       paramsAxis, eps, contributes(grads[1]) ? grads[1] : Tensor(),
                                       contributes(grads[2]) ? grads[2] : Tensor());
    return {g[0], g[1], g[2]};
}
} // namespace

const OpDef kLayerNorm{"LayerNorm", "layer_norm", OpKind::NN, 3, 3, inferLayerNorm, forwardLayerNorm,
                       backwardLayerNorm};

OutputList layerNorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, std::int64_t beginNormAxis,
                     std::int64_t beginParamsAxis, double epsilon)
{
    Attrs attrs;
    attrs.set("begin_norm_axis", beginNormAxis);
    attrs.set("begin_params_axis", beginParamsAxis);
    attrs.set("epsilon", epsilon);
    const Tensor inputs[] = {x, gamma, beta};
    return callOp(kLayerNorm, inputs, attrs);
}

} // namespace gradstep
