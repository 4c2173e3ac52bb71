// abs: y = |x|.  dy/dx = sign(x), so the gradient at the kink x = 0 is 0.
// Integers and floats; Bool throws DTypeError. The most negative integer maps to itself (two's
// complement wrap-around, no undefined behaviour). abs(-0.0) = 0, abs(+-inf) = +inf, NaN stays NaN.
// Complex: y = |z| in the part dtype (Float32 for Complex64); the gradient is dout * z / |z|
// (the direction of steepest ascent of |z|), 0 at z = 0.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"
#include "ops/shape_ops.h"

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
    out[0].dtype = complexPart(out[0].dtype);
}

void forwardAbs(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    if (isComplex(x.dtype())) {
        visitComplex(x.dtype(), [&](auto* tag) {
            using C = std::remove_pointer_t<decltype(tag)>;
            using R = typename C::value_type;
            const C* px = x.data<C>();
            R* po = outputs[0].data<R>();
            for (std::int64_t i = 0, n = x.numel(); i < n; ++i)
                po[i] = std::abs(px[i]);
        });
        return;
    }
    numberUnaryForward(call, outputs, [](auto v) { return absValue(v); });
}

TensorList backwardAbs(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& x = ctx.input(0);
    if (isComplex(x.dtype())) {
        const Tensor y = ctx.output(0);
        const Tensor direction = select(equal(y, zerosLike(y)), zerosLike(x), div(x, y));
        return {mul(grads[0], direction)};
    }
    return {mul(grads[0], sign(ctx.input(0)))};
}
} // namespace

const OpDef kAbs{"Abs", "abs", OpKind::Elementwise, 1, 1, inferAbs, forwardAbs, backwardAbs};

Tensor abs(const Tensor& x) { return callOp1(kAbs, {x}); }

} // namespace gradstep
