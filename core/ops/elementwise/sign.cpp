// sign: y = -1 for x < 0, 0 for x = 0 (either zero), 1 for x > 0; NaN for NaN.
// dy/dx = 0 everywhere (including the jump at 0, where MindSpore also returns zeros).
// Integers and floats; Bool throws DTypeError.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
template <class T> T signValue(T v)
{
    if (v > T(0))
        return T(1);
    if (v < T(0))
        return T(-1);
    return v == T(0) ? T(0) : v; // NaN stays NaN
}

void inferSign(const OpCall& call, SpecList& out)
{
    inferUnary(call, out, false);
    requireNumber(call, out[0].dtype);
}

void forwardSign(const OpCall& call, std::span<Tensor> outputs)
{
    numberUnaryForward(call, outputs, [](auto v) { return signValue(v); });
}

TensorList backwardSign(const BackwardContext& ctx, std::span<const Tensor>)
{
    // Piecewise constant: the derivative is 0 everywhere, taken as 0 at the jump too.
    const Tensor& x = ctx.input(0);
    return {Tensor::zeros(x.shape(), x.dtype())};
}
} // namespace

const OpDef kSign{"Sign", "sign", OpKind::Elementwise, 1, 1, inferSign, forwardSign, backwardSign};

Tensor sign(const Tensor& x) { return callOp1(kSign, {x}); }

} // namespace gradstep
