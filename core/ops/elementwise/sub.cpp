// sub: y = a - b (broadcasting).  dy/da = 1, dy/db = -1; each gradient is summed back over the
// axes its input was broadcast along. Works on integers (wrapping on overflow) and floats; two
// Bool inputs throw DTypeError. NaN/Inf propagate as IEEE subtraction does (inf - inf = NaN).
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/grad_helpers.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
void inferSub(const OpCall& call, SpecList& out)
{
    inferBinary(call, out, false);
    requireNumber(call, out[0].dtype);
}

void forwardSub(const OpCall& call, std::span<Tensor> outputs)
{
    anyOrComplexBinaryForward(call, outputs, [](auto x, auto y) { return wrapSub(x, y); });
}

TensorList backwardSub(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& g = grads[0];
    Tensor gb = ctx.needsGrad(1) ? gradForInput(ctx, 1, neg(g)) : Tensor();
    return {gradForInput(ctx, 0, g), gb};
}
} // namespace

const OpDef kSub{"Sub", "sub", OpKind::Elementwise, 2, 2, inferSub, forwardSub, backwardSub};

Tensor sub(const Tensor& a, const Tensor& b) { return callOp1(kSub, {a, b}); }

} // namespace gradstep
