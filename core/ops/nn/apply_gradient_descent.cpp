// apply_gradient_descent (ApplyGradientDescent): var <- var - alpha * delta, in place, where var
// and delta have one shape and dtype and alpha is a one-element tensor of that dtype. The output
// is var itself (the same storage), as in MindSpore, so every handle to var sees the update.
// Each element is computed as var - (alpha * delta), rounded like sub(var, mul(alpha, delta)),
// so the optimizers give the same bits as when they used those ops; NaN and Inf propagate as in
// IEEE arithmetic. Not differentiable: it is an optimizer's update, run outside any tape.
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn_ops.h"

namespace gradstep {

namespace {
void inferApplyGradientDescent(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    requireSameDType(call, 0, 1);
    requireSameDType(call, 0, 2);
    if (call.input(1).numel() != 1)
        throwShapeError(call, "alpha must have one element, got shape " + call.input(1).shape().toString());
    if (!(call.input(2).shape() == call.input(0).shape()))
        throwShapeError(call, "delta has shape " + call.input(2).shape().toString() + ", expected var's "
                                  + call.input(0).shape().toString());
    out.push_back({call.input(0).shape(), call.input(0).dtype()});
}

void forwardApplyGradientDescent(const OpCall& call, std::span<Tensor> outputs)
{
    Tensor var = call.input(0);
    visitFloat(var.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T alpha = *call.input(1).data<T>();
        const T* delta = call.input(2).data<T>();
        T* v = var.data<T>();
        for (std::int64_t i = 0, n = var.numel(); i < n; ++i)
            v[i] = v[i] - alpha * delta[i];
    });
    outputs[0] = var;
}
} // namespace

const OpDef kApplyGradientDescent{"ApplyGradientDescent", "apply_gradient_descent", OpKind::NN, 3, 3,
                                  inferApplyGradientDescent, forwardApplyGradientDescent, nullptr, true,
                                  ~std::uint64_t{0}, true};

Tensor applyGradientDescent(const Tensor& var, const Tensor& alpha, const Tensor& delta)
{
    return callOp1(kApplyGradientDescent, {var, alpha, delta});
}

} // namespace gradstep
