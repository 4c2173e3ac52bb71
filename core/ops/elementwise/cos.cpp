// cos: y = cos x.  dy/dx = -sin x. cos(+-inf) = NaN, NaN propagates.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

#include <cmath>

namespace gradstep {

namespace {
void inferCos(const OpCall& call, SpecList& out) { inferUnary(call, out, true); }

void forwardCos(const OpCall& call, std::span<Tensor> outputs)
{
    floatUnaryForward<true>(call, outputs, [](auto v) { return std::cos(v); });
}

TensorList backwardCos(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {neg(mul(grads[0], conjOf(sin(ctx.input(0)))))};
}
} // namespace

const OpDef kCos{"Cos", "cos", OpKind::Elementwise, 1, 1, inferCos, forwardCos, backwardCos};

Tensor cos(const Tensor& x) { return callOp1(kCos, {x}); }

} // namespace gradstep
