// abs: y = |x|.  dy/dx = sign(x), so the gradient at the kink x = 0 is 0.
// Integers and floats; Bool throws DTypeError. The most negative integer maps to itself (two's
// complement wrap-around, no undefined behaviour). abs(-0.0) = 0, abs(+-inf) = +inf, NaN stays NaN.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

#include <cmath>

namespace gradstep {

namespace {
template <class T> T absValue(T v)
{
    if constexpr (std::is_floating_point_v<T>)
        return std::fabs(v);
    else
        return v < 0 ? wrapNeg(v) : v;
}

void inferAbs(const OpCall& call, SpecList& out)
{
    inferUnary(call, out, false);
    requireNumber(call, out[0].dtype);
}

void forwardAbs(const OpCall& call, std::span<Tensor> outputs)
{
    numberUnaryForward(call, outputs, [](auto v) { return absValue(v); });
}

TensorList backwardAbs(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {mul(grads[0], sign(ctx.input(0)))};
}
} // namespace

const OpDef kAbs{"Abs", "abs", OpKind::Elementwise, 1, 1, inferAbs, forwardAbs, backwardAbs};

Tensor abs(const Tensor& x) { return callOp1(kAbs, {x}); }

} // namespace gradstep
