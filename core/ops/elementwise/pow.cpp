// pow: y = base ^ exponent (broadcasting) in the promoted dtype of the operands, as MindSpore's
// Pow: floats, and integers and bools too (int ** int is an int).
//   dy/dbase = exponent * base^(exponent - 1),   dy/dexponent = log(base) * y.
// std::pow gives the float value, NaN for a negative base with a non-integer exponent. Integer
// powers are exact, by repeated squaring that wraps on overflow like the other integer kernels
// (a double would round above 2^53, and casting an out-of-range double back is undefined); a
// negative exponent gives the truncated quotient: 1 for base 1, +-1 for base -1, else 0. The
// exponent gradient is only formed when the exponent needs one, so x^2 at x = 0 has gradient 0;
// when it is formed at base <= 0 it is what IEEE gives: log(0) * 0 = NaN, log(-1) = NaN.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/grad_helpers.h"
#include "ops/elementwise/kernels.h"

#include <cmath>

namespace gradstep {

namespace {
template <class T> T integerPow(T base, T exponent)
{
    if constexpr (std::is_same_v<T, bool>) {
        return exponent ? base : true;
    } else {
        if constexpr (std::is_signed_v<T>) {
            if (exponent < 0) {
                if (base == 1)
                    return 1;
                if (base == -1)
                    return (exponent % 2 != 0) ? T(-1) : T(1);
                return 0;
            }
        }
        T result = 1;
        for (T e = exponent; e != 0; e = static_cast<T>(e / 2)) {
            if (e % 2 != 0)
                result = wrapMul(result, base);
            if (e / 2 != 0)
                base = wrapMul(base, base);
        }
        return result;
    }
}

void inferPow(const OpCall& call, SpecList& out)
{
    // MindSpore's Pow: "the data types of two Tensor inputs cannot both be bool"
    if (call.input(0).dtype() == DType::Bool && call.input(1).dtype() == DType::Bool)
        throwInputDType(call, 0, kNumberDTypes);
    inferBinary(call, out, false);
}

void forwardPow(const OpCall& call, std::span<Tensor> outputs)
{
    anyBinaryForward(call, outputs, [](auto x, auto y) {
        using T = decltype(x);
        if constexpr (std::is_integral_v<T>)
            return integerPow(x, y);
        else
            return std::pow(x, y);
    });
}

TensorList backwardPow(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& g = grads[0];
    const Tensor& base = ctx.input(0);
    const Tensor& exponent = ctx.input(1);
    Tensor gBase, gExponent;
    if (ctx.needsGrad(0)) {
        const Tensor lowered = sub(exponent, scalarLike(1.0, exponent));
        gBase = gradForInput(ctx, 0, mul(mul(g, exponent), pow(base, lowered)));
    }
    if (ctx.needsGrad(1)) {
        const Tensor y = ctx.output(0);
        // log is float-only: an integer base is taken in y's float dtype, or in Float32 when y
        // is an integer power too (the gradient is cast back to the exponent's dtype).
        const DType logType = isFloating(y.dtype()) ? y.dtype() : DType::Float32;
        const Tensor floatBase = isFloating(base.dtype()) ? base : cast(base, logType);
        gExponent = gradForInput(ctx, 1, mul(mul(g, log(floatBase)), y));
    }
    return {gBase, gExponent};
}
} // namespace

const OpDef kPow{"Pow", "pow", OpKind::Elementwise, 2, 2, inferPow, forwardPow, backwardPow};

Tensor pow(const Tensor& base, const Tensor& exponent) { return callOp1(kPow, {base, exponent}); }

} // namespace gradstep
