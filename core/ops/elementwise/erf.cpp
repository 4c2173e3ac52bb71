// erf: y = 2/sqrt(pi) * integral_0^x e^(-t^2) dt.  dy/dx = 2/sqrt(pi) * e^(-x^2).
// erf(+-inf) = +-1 with gradient 0; NaN propagates. Used by the exact (erf) form of gelu.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

#include <cmath>

namespace gradstep {

namespace {
void inferErf(const OpCall& call, SpecList& out) { inferUnary(call, out, true); }

void forwardErf(const OpCall& call, std::span<Tensor> outputs)
{
    floatUnaryForward(call, outputs, [](auto v) { return std::erf(v); });
}

TensorList backwardErf(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& x = ctx.input(0);
    // 2 / sqrt(pi)
    const Tensor scale = scalarLike(1.1283791670955126, x);
    return {mul(mul(grads[0], scale), exp(neg(square(x))))};
}
} // namespace

const OpDef kErf{"Erf", "erf", OpKind::Elementwise, 1, 1, inferErf, forwardErf, backwardErf};

Tensor erf(const Tensor& x) { return callOp1(kErf, {x}); }

} // namespace gradstep
