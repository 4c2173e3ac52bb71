// mul: y = a * b (broadcasting).  dy/da = b, dy/db = a, summed back to each input's shape.
// Complex: the factors are conjugated (MindSpore's convention, see conj.cpp's conjOf).
// 0 * Inf gives NaN in the forward pass and in the gradient, as IEEE does.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/grad_helpers.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
void inferMul(const OpCall& call, SpecList& out) { inferBinary(call, out, false); }

void forwardMul(const OpCall& call, std::span<Tensor> outputs)
{
    anyOrComplexBinaryForward(call, outputs, [](auto x, auto y) { return wrapMul(x, y); });
}

TensorList backwardMul(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& g = grads[0];
    Tensor ga = ctx.needsGrad(0) ? gradForInput(ctx, 0, mul(g, conjOf(ctx.input(1)))) : Tensor();
    Tensor gb = ctx.needsGrad(1) ? gradForInput(ctx, 1, mul(g, conjOf(ctx.input(0)))) : Tensor();
    return {ga, gb};
}
} // namespace

const OpDef kMul{"Mul", "mul", OpKind::Elementwise, 2, 2, inferMul, forwardMul, backwardMul};

Tensor mul(const Tensor& a, const Tensor& b) { return callOp1(kMul, {a, b}); }

} // namespace gradstep
