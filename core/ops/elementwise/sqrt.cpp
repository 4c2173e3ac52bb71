// sqrt: y = x^(1/2).  dy/dx = 1 / (2 y) (uses the output).
// IEEE: sqrt(0) = 0 with gradient +inf, sqrt(x < 0) = NaN, sqrt(+inf) = +inf.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

#include <cmath>

namespace gradstep {

namespace {
void inferSqrt(const OpCall& call, SpecList& out) { inferUnary(call, out, true); }

void forwardSqrt(const OpCall& call, std::span<Tensor> outputs)
{
    floatUnaryForward<true>(call, outputs, [](auto v) { return std::sqrt(v); });
}

TensorList backwardSqrt(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {div(mul(grads[0], scalarLike(0.5, grads[0])), conjOf(ctx.output(0)))};
}
} // namespace

const OpDef kSqrt{"Sqrt", "sqrt", OpKind::Elementwise, 1, 1, inferSqrt, forwardSqrt, backwardSqrt};

Tensor sqrt(const Tensor& x) { return callOp1(kSqrt, {x}); }

} // namespace gradstep
