// square: y = x^2.  dy/dx = 2x. Integers (wrapping on overflow) and floats; Bool throws
// DTypeError. Float overflow gives +inf; NaN propagates.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
void inferSquare(const OpCall& call, SpecList& out)
{
    inferUnary(call, out, false);
    requireNumber(call, out[0].dtype);
}

void forwardSquare(const OpCall& call, std::span<Tensor> outputs)
{
    numberUnaryForward<true>(call, outputs, [](auto v) { return wrapMul(v, v); });
}

TensorList backwardSquare(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {mul(grads[0], mul(conjOf(ctx.input(0)), scalarLike(2.0, ctx.input(0))))};
}
} // namespace

const OpDef kSquare{"Square", "square", OpKind::Elementwise, 1, 1,
                    inferSquare, forwardSquare, backwardSquare};

Tensor square(const Tensor& x) { return callOp1(kSquare, {x}); }

} // namespace gradstep
