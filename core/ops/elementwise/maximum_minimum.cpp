// maximum: y = max(a, b) and minimum: y = min(a, b) (broadcasting), one rule written once.
// maximum: dy/da = 1 where a > b, dy/db = 1 where b > a; minimum: dy/da = 1 where a < b,
// dy/db = 1 where b < a. At a tie (a == b) the gradient is split half/half, so the two sum to
// the incoming gradient and the rule is symmetric. A NaN operand is returned (MindSpore and
// NumPy) and gets no gradient. Integers and floats; two Bool inputs throw DTypeError. Gradients
// are routed by mask (select). SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/grad_helpers.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
void inferExtremum(const OpCall& call, SpecList& out)
{
    inferBinary(call, out, false);
    requireNumber(call, out[0].dtype);
}

template <bool Max> void forwardExtremum(const OpCall& call, std::span<Tensor> outputs)
{
    anyBinaryForward(call, outputs, [](auto x, auto y) { return nanExtremum<Max>(x, y); });
}

/// Where x wins against y: x > y for maximum, x < y for minimum.
template <bool Max> Tensor wins(const Tensor& x, const Tensor& y) { return Max ? greater(x, y) : less(x, y); }

template <bool Max> TensorList backwardExtremum(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& g = grads[0];
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    const Tensor half = select(equal(a, b), mul(g, scalarLike(0.5, g)), scalarLike(0.0, g));
    Tensor ga = ctx.needsGrad(0) ? gradForInput(ctx, 0, select(wins<Max>(a, b), g, half)) : Tensor();
    Tensor gb = ctx.needsGrad(1) ? gradForInput(ctx, 1, select(wins<Max>(b, a), g, half)) : Tensor();
    return {ga, gb};
}
} // namespace

const OpDef kMaximum{"Maximum", "maximum", OpKind::Elementwise, 2, 2,
                     inferExtremum, forwardExtremum<true>, backwardExtremum<true>};
const OpDef kMinimum{"Minimum", "minimum", OpKind::Elementwise, 2, 2,
                     inferExtremum, forwardExtremum<false>, backwardExtremum<false>};

Tensor maximum(const Tensor& a, const Tensor& b) { return callOp1(kMaximum, {a, b}); }
Tensor minimum(const Tensor& a, const Tensor& b) { return callOp1(kMinimum, {a, b}); }

} // namespace gradstep
