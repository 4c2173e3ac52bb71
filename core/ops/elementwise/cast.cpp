// cast: y = x converted to `dtype`.  dy/dx = 1 cast back to x's dtype when both are float;
// no gradient flows into integer or bool inputs, or out of integer outputs.
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

TensorList backwardCast(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& x = ctx.input(0);
    if (!isFloating(x.dtype()) || !isFloating(grads[0].dtype()))
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

} // namespace gradstep
