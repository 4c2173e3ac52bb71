// softplus: y = log(1 + e^x).  dy/dx = sigmoid(x) (itself differentiable, so grad of grad works).
// Evaluated as max(x, 0) + log1p(e^-|x|), which neither overflows for large x nor loses the tail
// for very negative x. softplus(+inf) = +inf, softplus(-inf) = 0; NaN propagates. Float only.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

#include <cmath>

namespace gradstep {

namespace {
template <class T> T softplusValue(T v)
{
    const T positive = v > T(0) ? v : T(0);
    return positive + std::log1p(std::exp(-std::fabs(v)));
}

void inferSoftplus(const OpCall& call, SpecList& out) { inferUnary(call, out, true); }

void forwardSoftplus(const OpCall& call, std::span<Tensor> outputs)
{
    floatUnaryForward(call, outputs, [](auto v) { return softplusValue(v); });
}

TensorList backwardSoftplus(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {mul(grads[0], sigmoid(ctx.input(0)))};
}
} // namespace

const OpDef kSoftplus{"Softplus", "softplus", OpKind::Elementwise, 1, 1,
                      inferSoftplus, forwardSoftplus, backwardSoftplus};

Tensor softplus(const Tensor& x) { return callOp1(kSoftplus, {x}); }

} // namespace gradstep
