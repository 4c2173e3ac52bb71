// log: y = ln x.  dy/dx = 1 / x.
// IEEE: log(0) = -inf with gradient +inf (for a positive incoming gradient), log(x < 0) = NaN.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

#include <cmath>

namespace gradstep {

namespace {
void inferLog(const OpCall& call, SpecList& out) { inferUnary(call, out, true); }

void forwardLog(const OpCall& call, std::span<Tensor> outputs)
{
    floatUnaryForward<true>(call, outputs, [](auto v) { return std::log(v); });
}

TensorList backwardLog(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {div(grads[0], conjOf(ctx.input(0)))};
}
} // namespace

const OpDef kLog{"Log", "log", OpKind::Elementwise, 1, 1, inferLog, forwardLog, backwardLog};

Tensor log(const Tensor& x) { return callOp1(kLog, {x}); }

} // namespace gradstep
