// sigmoid: y = 1 / (1 + e^-x).  dy/dx = y (1 - y) (uses the output).
// Evaluated without overflow on either side: e^x / (1 + e^x) for x < 0. sigmoid(+inf) = 1,
// sigmoid(-inf) = 0, both with gradient 0; NaN propagates.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

#include <cmath>

namespace gradstep {

namespace {
template <class T> T sigmoidValue(T v)
{
    // Complex numbers have no sign to split on; exp(-v) overflows to inf only where the
    // result is 0 anyway.
    if constexpr (kIsComplex<T>)
        return T(1) / (T(1) + std::exp(-v));
    else if (v >= T(0))
        return T(1) / (T(1) + std::exp(-v));
    const T e = std::exp(v);
    return e / (T(1) + e);
}

void inferSigmoid(const OpCall& call, SpecList& out) { inferUnary(call, out, true); }

void forwardSigmoid(const OpCall& call, std::span<Tensor> outputs)
{
    floatUnaryForward<true>(call, outputs, [](auto v) { return sigmoidValue(v); });
}

TensorList backwardSigmoid(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor y = ctx.output(0);
    return {mul(mul(grads[0], conjOf(y)), conjOf(sub(scalarLike(1.0, y), y)))};
}
} // namespace

const OpDef kSigmoid{"Sigmoid", "sigmoid", OpKind::Elementwise, 1, 1,
                     inferSigmoid, forwardSigmoid, backwardSigmoid};

Tensor sigmoid(const Tensor& x) { return callOp1(kSigmoid, {x}); }

} // namespace gradstep
