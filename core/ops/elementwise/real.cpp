// real: y = Re(z), Float32 for Complex64 and Float64 for Complex128; a real x is returned as a
// copy. Backward (MindSpore's convention, grad = dout * conj(dy/dz) summed over both parts):
// d z = complex(dout, 0).
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/complex_parts.h"
#include "ops/elementwise/defs.h"

namespace gradstep {

namespace {
void inferReal(const OpCall& call, SpecList& out) { inferComplexPart(call, out, true); }

void forwardReal(const OpCall& call, std::span<Tensor> outputs)
{
    complexPartForward(call, outputs, false, [](auto z) { return z.real(); });
}

TensorList backwardReal(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {complexPartGrad(ctx.input(0), grads[0], false)};
}
} // namespace

const OpDef kReal{"Real", "real", OpKind::Elementwise, 1, 1, inferReal, forwardReal, backwardReal};

Tensor real(const Tensor& x) { return callOp1(kReal, {x}); }

} // namespace gradstep
