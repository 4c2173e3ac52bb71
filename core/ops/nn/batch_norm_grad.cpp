// batch_norm_grad (BatchNormGrad): (dx, dscale, dbias) of BatchNorm from the cotangent dy, x,
// scale and the saved (batch or given) mean and variance, one kernel (batch_norm_kernel.h).
// Inputs (dy, x, scale, mean, variance[, dmean, dvariance]): MindSpore's order, its reserve input
// left out, and, as LayerNormGrad's, the cotangents of BatchNorm's statistics outputs when a
// script differentiates through them.
//   backward (second order): through the composed BatchNorm as a function of dy, x and scale (and
//   dmean, dvariance); none for mean and variance, which in training are x's statistics (their
//   part is in x's) and outside it are constants.
// SPDX-License-Identifier: MIT
#include "ops/dispatch.h"
#include "ops/nn/batch_norm_kernel.h"
#include "ops/nn/common.h"
#include "ops/nn/composed_vjp.h"
#include "ops/nn/fused_defs.h"
#include "ops/nn/norm_composed.h"
#include "ops/norm_ops.h"

namespace gradstep {

void checkBatchNormShapes(const OpCall& call, std::initializer_list<std::size_t> channelInputs,
                          std::size_t xInput); // batch_norm.cpp

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

TensorList backwardBatchNormGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const bool training = ctx.attrs().getBool("is_training", false);
    const double eps = ctx.attrs().getFloat("epsilon");
    const bool extra = ctx.inputCount() == 7;
    TensorList inputs{ctx.input(0), ctx.input(1), ctx.input(2)};
    if (extra) {
        inputs.push_back(ctx.input(5));
        inputs.push_back(ctx.input(6));
    }
    const auto composedGrad = [&](const TensorList& in) {
        const Tensor& scale = in[2];
        const TensorList seeds{in[0], extra ? in[3] : Tensor::zeros(scale.shape(), scale.dtype()),
                               extra ? in[4] : Tensor::zeros(scale.shape(), scale.dtype())};
        const Tensor bias = Tensor::zeros(scale.shape(), scale.dtype()); // y's shift: dbias does not depend on it
        return composedVjp(
            [&](const TensorList& xsb) {
                return batchNormComposed({xsb[0], xsb[1], xsb[2], ctx.input(3), ctx.input(4)}, training, eps);
            },
            {in[1], scale, bias}, seeds);
    };
    const TensorList d = composedVjp(composedGrad, inputs, {grads[0], grads[1], grads[2]});
    TensorList result{d[0], d[1], d[2], Tensor(), Tensor()};
    if (extra) {
        result.push_back(d[3]);
        result.push_back(d[4]);
    }
    return result;
}
} // namespace

const OpDef kBatchNormGrad{"BatchNormGrad", "batch_norm_grad", OpKind::NN, 5, 7, inferBatchNormGrad,
                           forwardBatchNormGrad, backwardBatchNormGrad, false, 0b1100111};

OutputList batchNormGrad(const Tensor& dy, const Tensor& x, const Tensor& scale, const Tensor& mean,
                         const Tensor& variance, bool training, double epsilon, const Tensor& dmean,
                         const Tensor& dvariance)
{
    Attrs attrs;
    attrs.set("is_training", training);
    attrs.set("epsilon", epsilon);
    if (!dmean.defined() && !dvariance.defined()) {
        const Tensor inputs[] = {dy, x, scale, mean, variance};
        return callOp(kBatchNormGrad, inputs, attrs);
    }
    const Tensor dm = dmean.defined() ? dmean : Tensor::zeros(mean.shape(), mean.dtype());
    const Tensor dv = dvariance.defined() ? dvariance : Tensor::zeros(variance.shape(), variance.dtype());
    const Tensor inputs[] = {dy, x, scale, mean, variance, dm, dv};
    return callOp(kBatchNormGrad, inputs, attrs);
}

} // namespace gradstep
