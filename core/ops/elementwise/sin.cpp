// sin: y = sin x.  dy/dx = cos x. sin(+-inf) = NaN, NaN propagates.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

#include <cmath>

namespace gradstep {

namespace {
void inferSin(const OpCall& call, SpecList& out) { inferUnary(call, out, true); }

void forwardSin(const OpCall& call, std::span<Tensor> outputs)
{
    floatUnaryForward<true>(call, outputs, [](auto v) { return std::sin(v); });
}

TensorList backwardSin(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {mul(grads[0], conjOf(cos(ctx.input(0))))};
}
} // namespace

const OpDef kSin{"Sin", "sin", OpKind::Elementwise, 1, 1, inferSin, forwardSin, backwardSin};

Tensor sin(const Tensor& x) { return callOp1(kSin, {x}); }

} // namespace gradstep
