// select (ops.select / where): y = x where condition, y where not (all three broadcast).
//   dy/dx = condition, dy/dy = !condition: the incoming gradient is routed by the mask (never
//   multiplied, so an inf gradient on the unchosen side does not leak NaN); the Bool condition
//   gets none. x and y may be any dtype (promoted); a non-Bool condition throws DTypeError.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/grad_helpers.h"
#include "ops/elementwise/kernels.h"
#include "tensor/dtype_storage.h"

namespace gradstep {

namespace {
void inferSelect(const OpCall& call, SpecList& out)
{
    const DType conditionType = call.input(0).dtype();
    if (conditionType != DType::Bool)
        throwInputDType(call, 0, dtypeBit(DType::Bool));
    inferTernary(call, out, 1);
}

void forwardSelect(const OpCall& call, std::span<Tensor> outputs)
{
    Tensor& out = outputs[0];
    const Tensor x = convertDType(call.input(1), out.dtype());
    const Tensor y = convertDType(call.input(2), out.dtype());
    visitDataDType(out.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        broadcastTernary<bool, T, T, T>(call.input(0), x, y, out,
                                        [](bool c, T vx, T vy) { return c ? vx : vy; });
    });
}

TensorList backwardSelect(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& g = grads[0];
    const Tensor& condition = ctx.input(0);
    const Tensor zero = scalarLike(0.0, g);
    Tensor gx = ctx.needsGrad(1) ? gradForInput(ctx, 1, select(condition, g, zero)) : Tensor();
    Tensor gy = ctx.needsGrad(2) ? gradForInput(ctx, 2, select(condition, zero, g)) : Tensor();
    return {Tensor(), gx, gy};
}
} // namespace

const OpDef kSelect{"Select", "select", OpKind::Elementwise, 3, 3, inferSelect, forwardSelect,
                    backwardSelect, false, 0b110, false, false, 0b001};

Tensor select(const Tensor& condition, const Tensor& x, const Tensor& y)
{
    return callOp1(kSelect, {condition, x, y});
}

} // namespace gradstep
