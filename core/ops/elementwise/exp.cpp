// exp: y = e^x.  dy/dx = e^x = y (the output is reused, so grad of grad stays cheap).
// exp(+inf) = +inf, exp(-inf) = 0, NaN propagates; float32 overflows to +inf above x ~ 88.7.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

#include <cmath>

namespace gradstep {

namespace {
void inferExp(const OpCall& call, SpecList& out) { inferUnary(call, out, true); }

void forwardExp(const OpCall& call, std::span<Tensor> outputs)
{
    floatUnaryForward<true>(call, outputs, [](auto v) { return std::exp(v); });
}

TensorList backwardExp(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {mul(grads[0], conjOf(ctx.output(0)))};
}
} // namespace

const OpDef kExp{"Exp", "exp", OpKind::Elementwise, 1, 1, inferExp, forwardExp, backwardExp};

Tensor exp(const Tensor& x) { return callOp1(kExp, {x}); }

} // namespace gradstep
