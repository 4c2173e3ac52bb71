// group_norm_grad (GroupNormGrad): (dx, dgamma, dbeta) of GroupNorm from x, the cotangent dy and
// the saved variance and mean (N, num_groups), in one kernel (norm_kernel.h); inputs as
// LayerNormGrad's: (x, dy, variance, mean, gamma[, dmean, dvariance]).
//   backward (second order): as LayerNormGrad's, through the composed GroupNorm as a function of
//   x, dy and gamma (none for the variance and mean inputs: their part is in x's).
// SPDX-License-Identifier: MIT
#include "ops/dispatch.h"
#include "ops/nn/common.h"
#include "ops/nn/composed_vjp.h"
#include "ops/nn/fused_defs.h"
#include "ops/nn/norm_composed.h"
#include "ops/nn/norm_kernel.h"
#include "ops/norm_ops.h"

namespace gradstep {

void checkGroupNormShapes(const OpCall& call, std::size_t gammaInput); // group_norm.cpp

namespace {
void inferGroupNormGrad(const OpCall& call, SpecList& out)
{
    const std::size_t n = call.inputs.size();
    for (std::size_t i = 0; i < n; ++i) {
        requireFloat(call, i);
        requireSameDType(call, 0, i);
    }
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

TensorList backwardGroupNormGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const std::int64_t groups = ctx.attrs().getInt("num_groups");
    const double eps = ctx.attrs().getFloat("epsilon");
    const bool extra = ctx.inputCount() == 7;
    TensorList inputs{ctx.input(0), ctx.input(1), ctx.input(4)};
    if (extra) {
        inputs.push_back(ctx.input(5));
        inputs.push_back(ctx.input(6));
    }
    const auto composedGrad = [&](const TensorList& in) {
        const TensorList seeds{in[1], extra ? in[3] : Tensor::zeros(ctx.input(3).shape(), in[0].dtype()),
                               extra ? in[4] : Tensor::zeros(ctx.input(2).shape(), in[0].dtype())};
        const Tensor beta = Tensor::zeros(in[2].shape(), in[2].dtype()); // y's shift: dbeta does not depend on it
        return composedVjp([&](const TensorList& xgb) { return groupNormComposed(xgb, groups, eps); },
                           {in[0], in[2], beta}, seeds);
    };
    const TensorList d = composedVjp(composedGrad, inputs, {grads[0], grads[1], grads[2]});
    TensorList result{d[0], d[1], Tensor(), Tensor(), d[2]};
    if (extra) {
        result.push_back(d[3]);
        result.push_back(d[4]);
    }
    return result;
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
    if (!dmean.defined() && !dvariance.defined()) {
        const Tensor inputs[] = {x, dy, variance, mean, gamma};
        return callOp(kGroupNormGrad, inputs, attrs);
    }
    const Tensor dm = dmean.defined() ? dmean : Tensor::zeros(mean.shape(), mean.dtype());
    const Tensor dv = dvariance.defined() ? dvariance : Tensor::zeros(variance.shape(), variance.dtype());
    const Tensor inputs[] = {x, dy, variance, mean, gamma, dm, dv};
    return callOp(kGroupNormGrad, inputs, attrs);
}

} // namespace gradstep
