// rsqrt: y = x^(-1/2).  dy/dx = -x^(-3/2) / 2 = -y^3 / 2 (uses the output).
// IEEE: rsqrt(0) = +inf with gradient -inf, rsqrt(x < 0) = NaN, rsqrt(+inf) = 0.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

#include <cmath>

namespace gradstep {

namespace {
void inferRsqrt(const OpCall& call, SpecList& out) { inferUnary(call, out, true); }

void forwardRsqrt(const OpCall& call, std::span<Tensor> outputs)
{
    floatUnaryForward(call, outputs, [](auto v) { return decltype(v)(1) / std::sqrt(v); });
}

TensorList backwardRsqrt(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor y = ctx.output(0);
    return {mul(mul(grads[0], scalarLike(-0.5, y)), mul(square(y), y))};
}
} // namespace

const OpDef kRsqrt{"Rsqrt", "rsqrt", OpKind::Elementwise, 1, 1,
                   inferRsqrt, forwardRsqrt, backwardRsqrt};

Tensor rsqrt(const Tensor& x) { return callOp1(kRsqrt, {x}); }

} // namespace gradstep
