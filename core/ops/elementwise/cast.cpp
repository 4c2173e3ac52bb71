// cast: y = x converted to `dtype` (MindSpore's CPU Cast; see convertElement).  dy/dx = 1: the
// gradient is cast back to x's dtype, as MindSpore's bprop does.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
void inferCast(const OpCall& call, SpecList& out) { out.push_back({call.input(0).shape(), call.attrs.getDType("dtype")}); }

void forwardCast(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor converted = convertDType(call.input(0), call.attrs.getDType("dtype"));
    // A cast to the same dtype is an alias, never the caller's own handle (its autodiff link differs).
    outputs[0] = converted.sameAs(call.input(0)) ? converted.detach() : converted;
}

// MindSpore's Cast bprop casts the incoming gradient to x's dtype whatever the two dtypes are:
// through an integer cast the gradient is truncated to integers, not cut.
TensorList backwardCast(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& x = ctx.input(0);
    if (!ctx.needsGrad(0))
        return {Tensor()};
    return {grads[0].dtype() == x.dtype() ? grads[0] : cast(grads[0], x.dtype())};
}
} // namespace

const OpDef kCast{"Cast", "cast", OpKind::Elementwise, 1, 1, inferCast, forwardCast, backwardCast, true};

Tensor cast(const Tensor& x, DType dtype)
{
    Attrs attrs;
    attrs.set("dtype", dtype);
    return callOp1(kCast, {x}, attrs);
}

Tensor inInputDType(const Tensor& grad, DType input)
{
    if (!grad.defined() || grad.dtype() == input || !carriesGradient(input))
        return grad;
    // A complex gradient for a real input keeps its real part (MindSpore casts it back).
    if (isComplex(grad.dtype()) && !isComplex(input))
        return cast(grad, input);
    if (!isFloating(grad.dtype()) || isFloating(input) || isComplex(input))
        return grad;
    return cast(grad, input);
}

} // namespace gradstep
