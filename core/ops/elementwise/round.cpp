// round: y = x rounded to the nearest integer, halves to even (NumPy's and MindSpore's rounding);
// NaN and +-Inf stay as they are. dy/dx = 0 everywhere, taken as 0 at the jumps too (MindSpore's
// Round bprop returns zeros). Floats only; integers are already round and throw DTypeError.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

#include <cmath>

namespace gradstep {

namespace {
void inferRound(const OpCall& call, SpecList& out) { inferUnary(call, out, true); }

void forwardRound(const OpCall& call, std::span<Tensor> outputs)
{
    // std::nearbyint rounds halves to even in the default rounding mode.
    floatUnaryForward(call, outputs, [](auto v) { return std::nearbyint(v); });
}

TensorList backwardRound(const BackwardContext& ctx, std::span<const Tensor>)
{
    const Tensor& x = ctx.input(0);
    return {Tensor::zeros(x.shape(), x.dtype())};
}
} // namespace

const OpDef kRound{"Round", "round", OpKind::Elementwise, 1, 1, inferRound, forwardRound, backwardRound};

Tensor round(const Tensor& x) { return callOp1(kRound, {x}); }

} // namespace gradstep
