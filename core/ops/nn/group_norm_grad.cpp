// group_norm_grad (GroupNormGrad): (dx, dgamma, dbeta) of GroupNorm from x, the cotangent dy and
// the saved variance and mean (N, num_groups), in one kernel (norm_kernel.h); inputs as
// LayerNormGrad's: (x, dy, variance, mean, gamma[, dmean, dvariance]).
//   backward (second order): with respect to every input, written with ops (norm_grad_vjp.h) over
//   the view (N, num_groups, C / num_groups * spatial) of x.
// SPDX-License-Identifier: MIT
#include "ops/dispatch.h"
#include "ops/nn/common.h"
#include "ops/nn/fused_defs.h"
#include "ops/nn/norm_grad_vjp.h"
#include "ops/nn/norm_kernel.h"
#include "ops/norm_ops.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

namespace gradstep {

namespace {
void inferGroupNormGrad(const OpCall& call, SpecList& out)
{
    const std::size_t n = call.inputs.size();
    requireFloatsOfOneDType(call, n);
    checkGroupNormShapes(call, 4);
    const Shape& x = call.input(0).shape();
    if (!(call.input(1).shape() == x))
        throwShapeError(call, "dy must have input_x's shape " + x.toString() + ", got "
                                  + call.input(1).shape().toString());
    const Shape stats{x[0], call.attrs.getInt("num_groups")};
    for (std::size_t i : {std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{6}})
        if (i < n && !(call.input(i).shape() == stats))
            throwShapeError(call, "the statistics and their cotangents must have shape " + stats.toString() + ", got "
                                      + call.input(i).shape().toString());
    const DType dtype = call.input(0).dtype();
    out.push_back({x, dtype});
    out.push_back({call.input(4).shape(), dtype});
    out.push_back({call.input(4).shape(), dtype});
}

void forwardGroupNormGrad(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    const NormLayout layout = groupNormLayout(x.shape(), call.attrs.getInt("num_groups"));
    const bool extra = call.inputs.size() == 7;
    visitFloat(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        normBackward<T>(x.data<T>(), call.input(1).data<T>(), call.input(3).data<T>(), call.input(2).data<T>(),
                        call.input(4).data<T>(), extra ? call.input(5).data<T>() : nullptr,
                        extra ? call.input(6).data<T>() : nullptr, outputs[0].data<T>(), outputs[1].data<T>(),
                        outputs[2].data<T>(), layout, call.attrs.getFloat("epsilon"));
    });
}

NormRows groupNormRows(const Shape& x, std::int64_t groups)
{
    NormRows rows;
    const std::int64_t n = x[0], c = x[1];
    const NormLayout layout = groupNormLayout(x, groups);
    rows.length = static_cast<double>(layout.length);
    std::vector<std::int64_t> channel(static_cast<std::size_t>(x.rank()), 1), others{0};
    channel[1] = c;
    for (int a = 2; a < x.rank(); ++a)
        others.push_back(a);
    const std::vector<std::int64_t> full = x.toVector();
    rows.toView = [n, groups](const Tensor& t) { return reshape(t, {n, groups, -1}); };
    rows.fromView = [full](const Tensor& t) { return reshape(t, full); };
    rows.rowSum = [](const Tensor& t) { return reduceSum(t, {2}, true); };
    rows.stats = [n, groups](const Tensor& t) { return reshape(t, {n, groups, 1}); };
    rows.statsBack = [n, groups](const Tensor& t) { return reshape(t, {n, groups}); };
    rows.gammaFull = [=](const Tensor& t) { return reshape(broadcastTo(reshape(t, channel), full), {n, groups, -1}); };
    rows.gammaBack = [=](const Tensor& t) { return reduceSum(reshape(t, full), others); };
    return rows;
}

TensorList backwardGroupNormGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const bool extra = ctx.inputCount() == 7;
    const NormGradInputs in{ctx.input(0), ctx.input(1), ctx.input(2), ctx.input(3), ctx.input(4),
                            extra ? ctx.input(5) : Tensor(), extra ? ctx.input(6) : Tensor()};
    TensorList d = normGradVjp(groupNormRows(ctx.input(0).shape(), ctx.attrs().getInt("num_groups")), in, grads[0],
                               grads[1], grads[2], ctx.attrs().getFloat("epsilon"));
    d.resize(ctx.inputCount());
    return d;
}
} // namespace

const OpDef kGroupNormGrad{"GroupNormGrad", "group_norm_grad", OpKind::NN, 5, 7, inferGroupNormGrad,
                           forwardGroupNormGrad, backwardGroupNormGrad};

OutputList groupNormGrad(const Tensor& x, const Tensor& dy, const Tensor& variance, const Tensor& mean,
                         const Tensor& gamma, std::int64_t groups, double epsilon, const Tensor& dmean,
                         const Tensor& dvariance)
{
    Attrs attrs;
    attrs.set("num_groups", groups);
    attrs.set("epsilon", epsilon);
    return callNormGrad(kGroupNormGrad, {x, dy, variance, mean, gamma}, mean, variance, dmean, dvariance, attrs);
}

} // namespace gradstep
