// layer_norm_grad (LayerNormGrad): MindSpore's primitive, (dx, dgamma, dbeta) of LayerNorm from
// x, the cotangent dy and the saved variance and mean, in one kernel (norm_kernel.h). Two optional
// inputs beyond MindSpore's five, dmean and dvariance, carry the cotangents of LayerNorm's other
// outputs when a script differentiates through them (the node shows five inputs otherwise).
//   backward (second order): with respect to every input, written with ops (norm_grad_vjp.h).
// SPDX-License-Identifier: MIT
#include "ops/dispatch.h"
#include "ops/nn/common.h"
#include "ops/nn/fused_defs.h"
#include "ops/nn/norm_grad_vjp.h"
#include "ops/nn/norm_kernel.h"
#include "ops/norm_ops.h"
#include "ops/reduction.h"

namespace gradstep {

namespace {
void inferLayerNormGrad(const OpCall& call, SpecList& out)
{
    const std::size_t n = call.inputs.size();
    requireFloatsOfOneDType(call, n);
    const Shape& x = call.input(0).shape();
    if (!(call.input(1).shape() == x))
        throwShapeError(call, "dy must have input_x's shape " + x.toString() + ", got "
                                  + call.input(1).shape().toString());
    const int normAxis = normalizeAxis(call.attrs.getInt("begin_norm_axis"), x.rank(), call.op.name);
    const int paramsAxis = normalizeAxis(call.attrs.getInt("begin_params_axis"), x.rank(), call.op.name);
    std::vector<std::int64_t> stats = x.toVector();
    for (int a = normAxis; a < x.rank(); ++a)
        stats[static_cast<std::size_t>(a)] = 1;
    for (std::size_t i : {std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{6}})
        if (i < n && !(call.input(i).shape() == Shape(stats)))
            throwShapeError(call, "the statistics and their cotangents must have shape " + Shape(stats).toString()
                                      + ", got " + call.input(i).shape().toString());
    const Shape params(std::vector<std::int64_t>(x.dims().begin() + paramsAxis, x.dims().end()));
    if (!(call.input(4).shape() == params))
        throwShapeError(call, "gamma must have shape " + params.toString() + ", got "
                                  + call.input(4).shape().toString());
    out.push_back({x, call.input(0).dtype()});
    out.push_back({params, call.input(0).dtype()});
    out.push_back({params, call.input(0).dtype()});
}

void forwardLayerNormGrad(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    const NormLayout layout = layerNormLayout(x.shape(), call.attrs.getInt("begin_norm_axis"), call.input(4).numel());
    const bool extra = call.inputs.size() == 7;
    visitFloat(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        normBackward<T>(x.data<T>(), call.input(1).data<T>(), call.input(3).data<T>(), call.input(2).data<T>(),
                        call.input(4).data<T>(), extra ? call.input(5).data<T>() : nullptr,
                        extra ? call.input(6).data<T>() : nullptr, outputs[0].data<T>(), outputs[1].data<T>(),
                        outputs[2].data<T>(), layout, call.attrs.getFloat("epsilon"));
    });
}

// Rows are the trailing axes from begin_norm_axis; gamma covers those from begin_params_axis.
NormRows layerNormRows(const Shape& x, int normAxis, int paramsAxis)
{
    NormRows rows;
    std::vector<std::int64_t> rowAxes, leading;
    rows.length = 1;
    for (int a = 0; a < x.rank(); ++a) {
        if (a >= normAxis) {
            rowAxes.push_back(a);
            rows.length *= static_cast<double>(x[a]);
        }
        if (a < paramsAxis)
            leading.push_back(a);
    }
    const auto same = [](const Tensor& t) { return t; };
    rows.toView = rows.fromView = rows.stats = rows.statsBack = rows.gammaFull = same;
    rows.rowSum = [rowAxes](const Tensor& t) { return reduceSum(t, rowAxes, true); };
    rows.gammaBack = [leading](const Tensor& t) { return leading.empty() ? t : reduceSum(t, leading); };
    return rows;
}

TensorList backwardLayerNormGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Shape& x = ctx.input(0).shape();
    const int normAxis = normalizeAxis(ctx.attrs().getInt("begin_norm_axis"), x.rank(), "LayerNormGrad");
    const int paramsAxis = normalizeAxis(ctx.attrs().getInt("begin_params_axis"), x.rank(), "LayerNormGrad");
    const bool extra = ctx.inputCount() == 7;
    const NormGradInputs in{ctx.input(0), ctx.input(1), ctx.input(2), ctx.input(3), ctx.input(4),
                            extra ? ctx.input(5) : Tensor(), extra ? ctx.input(6) : Tensor()};
    TensorList d = normGradVjp(layerNormRows(x, normAxis, paramsAxis), in, grads[0], grads[1], grads[2],
                               ctx.attrs().getFloat("epsilon"));
    d.resize(ctx.inputCount());
    return d;
}
} // namespace

const OpDef kLayerNormGrad{"LayerNormGrad", "layer_norm_grad", OpKind::NN, 5, 7, inferLayerNormGrad,
                           forwardLayerNormGrad, backwardLayerNormGrad};

OutputList layerNormGrad(const Tensor& x, const Tensor& dy, const Tensor& variance, const Tensor& mean,
                         const Tensor& gamma, std::int64_t beginNormAxis, std::int64_t beginParamsAxis,
                         double epsilon, const Tensor& dmean, const Tensor& dvariance)
{
    Attrs attrs;
    attrs.set("begin_norm_axis", beginNormAxis);
    attrs.set("begin_params_axis", beginParamsAxis);
    attrs.set("epsilon", epsilon);
    return callNormGrad(kLayerNormGrad, {x, dy, variance, mean, gamma}, mean, variance, dmean, dvariance, attrs);
}

} // namespace gradstep
