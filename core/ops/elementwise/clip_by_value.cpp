// clip_by_value: y = min(max(x, lo), hi), all three broadcasting (MindSpore's ClipByValue).
//   dy/dhi = 1 where max(x, lo) > hi; otherwise dy/dlo = 1 where x < lo, else dy/dx = 1.
// At the bounds themselves (x == lo or x == hi) the gradient goes to x, as clamp does in PyTorch;
// when lo > hi every element is hi and all of the gradient goes to hi. A NaN anywhere gives NaN
// (the NaN-returning maximum/minimum), and a NaN x keeps its gradient. Integers and floats
// (promoted); Bool inputs throw DTypeError.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/grad_helpers.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
void inferClipByValue(const OpCall& call, SpecList& out)
{
    inferTernary(call, out, 0);
    requireNumber(call, out[0].dtype);
}

void forwardClipByValue(const OpCall& call, std::span<Tensor> outputs)
{
    Tensor& out = outputs[0];
    const Tensor x = convertDType(call.input(0), out.dtype());
    const Tensor lo = convertDType(call.input(1), out.dtype());
    const Tensor hi = convertDType(call.input(2), out.dtype());
    visitDType(out.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        broadcastTernary<T, T, T, T>(x, lo, hi, out,
                                     [](T v, T l, T h) { return nanMin(nanMax(v, l), h); });
    });
}

TensorList backwardClipByValue(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& g = grads[0];
    // The masks compare in the result dtype, as the forward does: Bool x and lo with a float hi
    // are accepted there, while maximum refuses two Bool operands.
    const Tensor x = cast(ctx.input(0), g.dtype());
    const Tensor lo = cast(ctx.input(1), g.dtype());
    const Tensor hi = cast(ctx.input(2), g.dtype());
    const Tensor zero = scalarLike(0.0, g);
    const Tensor aboveHi = less(hi, maximum(x, lo));
    const Tensor belowLo = less(x, lo);
    const Tensor notHi = select(aboveHi, zero, g);
    Tensor gx = ctx.needsGrad(0) ? gradForInput(ctx, 0, select(belowLo, zero, notHi)) : Tensor();
    Tensor gLo = ctx.needsGrad(1) ? gradForInput(ctx, 1, select(belowLo, notHi, zero)) : Tensor();
    Tensor gHi = ctx.needsGrad(2) ? gradForInput(ctx, 2, select(aboveHi, g, zero)) : Tensor();
    return {gx, gLo, gHi};
}
} // namespace

const OpDef kClipByValue{"ClipByValue", "clip_by_value", OpKind::Elementwise, 3, 3,
                         inferClipByValue, forwardClipByValue, backwardClipByValue};

Tensor clipByValue(const Tensor& x, const Tensor& clipMin, const Tensor& clipMax)
{
    return callOp1(kClipByValue, {x, clipMin, clipMax});
}

} // namespace gradstep
