// div (MindSpore's RealDiv): y = a / b (broadcasting), true division, so float only. An integer
// input is promoted when the other is float; two integer (or Bool) inputs throw DTypeError
// rather than silently truncating or changing dtype.
//   dy/da = 1 / b,   dy/db = -a / b^2 = -y / b   (uses the output, so grad of grad reuses it).
// IEEE at zero: x/0 = +-inf and 0/0 = NaN; the gradients follow (d/db at b = 0 is +-inf or NaN).
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/grad_helpers.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
void inferDiv(const OpCall& call, SpecList& out) { inferBinary(call, out, true); }

void forwardDiv(const OpCall& call, std::span<Tensor> outputs)
{
    floatOrComplexBinaryForward(call, outputs, [](auto x, auto y) { return x / y; });
}

TensorList backwardDiv(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& g = grads[0];
    const Tensor b = conjOf(ctx.input(1));
    Tensor ga = ctx.needsGrad(0) ? gradForInput(ctx, 0, div(g, b)) : Tensor();
    Tensor gb;
    if (ctx.needsGrad(1))
        gb = gradForInput(ctx, 1, neg(div(mul(g, conjOf(ctx.output(0))), b)));
    return {ga, gb};
}
} // namespace

const OpDef kRealDiv{"RealDiv", "div", OpKind::Elementwise, 2, 2,
                     inferDiv, forwardDiv, backwardDiv};

Tensor div(const Tensor& a, const Tensor& b) { return callOp1(kRealDiv, {a, b}); }

} // namespace gradstep
