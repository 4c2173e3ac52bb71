// batch_norm (BatchNorm): MindSpore's primitive on x (N, C, ...) with scale, bias, mean and
// variance (C,): y = (x - mean_c) * rsqrt(variance_c + epsilon) * scale_c + bias_c, where in
// training (is_training) mean and variance are the batch's (variance biased) and otherwise the
// given ones. Outputs (y, batch_mean, batch_variance) (the given statistics outside training);
// MindSpore's two reserve outputs repeat them and are left to the Python primitive. The moving
// statistics are not updated here: the layers update them from these outputs, as MindSpore's
// nn.BatchNorm semantics say (moving = momentum * moving + (1 - momentum) * batch).
//   backward: one BatchNormGrad node, whose own gradient (norm_grad_vjp.h) gives higher orders.
//   mean and variance inputs get no gradient (MindSpore's
//   bprop gives them zeros). SPDX-License-Identifier: MIT
#include "ops/dispatch.h"
#include "ops/nn/batch_norm_kernel.h"
#include "ops/nn/common.h"
#include "ops/nn/fused_defs.h"
#include "ops/nn/norm_grad_vjp.h"
#include "ops/norm_ops.h"

#include <cstring>

namespace gradstep {

void checkBatchNormShapes(const OpCall& call, std::initializer_list<std::size_t> channelInputs, std::size_t xInput)
{
    const Shape& x = call.input(xInput).shape();
    requireFloatsOfOneDType(call, call.inputs.size());
    if (x.rank() < 2)
        throwShapeError(call, "input_x must be (N, C, ...), got " + x.toString());
    for (std::size_t i : channelInputs)
        if (i < call.inputs.size() && !(call.input(i).shape() == Shape{x[1]}))
            throwShapeError(call, "input " + std::to_string(i) + " must have shape (" + std::to_string(x[1])
                                      + ",), got " + call.input(i).shape().toString());
}

namespace {
void inferBatchNorm(const OpCall& call, SpecList& out)
{
    checkBatchNormShapes(call, {1, 2, 3, 4}, 0);
    const DType dtype = call.input(0).dtype();
    out.push_back({call.input(0).shape(), dtype});
    out.push_back({call.input(1).shape(), dtype});
    out.push_back({call.input(1).shape(), dtype});
}

void forwardBatchNorm(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    const bool training = call.attrs.getBool("is_training", false);
    if (!training) // the statistics given are the ones used and returned
        for (std::size_t i : {std::size_t{1}, std::size_t{2}})
            std::memcpy(outputs[i].rawData(), call.input(i + 2).rawData(), outputs[i].nbytes());
    visitFloat(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        batchNormForward<T>(x.data<T>(), call.input(1).data<T>(), call.input(2).data<T>(), outputs[1].data<T>(),
                            outputs[2].data<T>(), outputs[0].data<T>(), batchLayout(x.shape()),
                            call.attrs.getFloat("epsilon"), training);
    });
}

TensorList backwardBatchNorm(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const bool training = ctx.attrs().getBool("is_training", false);
    const double eps = ctx.attrs().getFloat("epsilon");
    const bool stats = training; // outside training the outputs are the inputs, which get no gradient
    const OutputList g = batchNormGrad(grads[0], ctx.input(0), ctx.input(1), ctx.output(1), ctx.output(2), training,
                                       eps, stats && contributes(grads[1]) ? grads[1] : Tensor(),
                                       stats && contributes(grads[2]) ? grads[2] : Tensor());
    return {g[0], g[1], g[2], Tensor(), Tensor()};
}
} // namespace

const OpDef kBatchNorm{"BatchNorm", "batch_norm", OpKind::NN, 5, 5, inferBatchNorm, forwardBatchNorm,
                       backwardBatchNorm, false, 0b00111};

OutputList batchNorm(const Tensor& x, const Tensor& scale, const Tensor& bias, const Tensor& mean,
                     const Tensor& variance, bool training, double epsilon)
{
    Attrs attrs;
    attrs.set("is_training", training);
    attrs.set("epsilon", epsilon);
    const Tensor inputs[] = {x, scale, bias, mean, variance};
    return callOp(kBatchNorm, inputs, attrs);
}

} // namespace gradstep
