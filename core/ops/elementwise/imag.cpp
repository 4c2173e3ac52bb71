// imag: y = Im(z), Float32 for Complex64 and Float64 for Complex128; a real x gives zeros.
// Backward (grad = dout * conj(dy/dz) over both parts): d z = complex(0, dout); none for real x.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/complex_parts.h"
#include "ops/elementwise/defs.h"

namespace gradstep {

namespace {
void inferImag(const OpCall& call, SpecList& out) { inferComplexPart(call, out, true); }

void forwardImag(const OpCall& call, std::span<Tensor> outputs)
{
    complexPartForward(call, outputs, true, [](auto z) { return z.imag(); });
}

TensorList backwardImag(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {complexPartGrad(ctx.input(0), grads[0], true)};
}
} // namespace

const OpDef kImag{"Imag", "imag", OpKind::Elementwise, 1, 1, inferImag, forwardImag, backwardImag};

Tensor imag(const Tensor& x) { return callOp1(kImag, {x}); }

} // namespace gradstep
