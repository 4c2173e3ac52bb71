// conj: y = conj(z) (a real x is returned as a copy).  Backward: d z = conj(dout), since
// Re(conj(c) * conj(z)) = Re(c z) changes by Re(c) along Re z and by -Im(c) along Im z.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/complex_parts.h"
#include "ops/elementwise/defs.h"

namespace gradstep {

namespace {
void inferConj(const OpCall& call, SpecList& out) { inferComplexPart(call, out, false); }

void forwardConj(const OpCall& call, std::span<Tensor> outputs)
{
    complexPartForward(call, outputs, false, [](auto z) { return std::conj(z); });
}

TensorList backwardConj(const BackwardContext&, std::span<const Tensor> grads) { return {conjOf(grads[0])}; }
} // namespace

const OpDef kConj{"Conj", "conj", OpKind::Elementwise, 1, 1, inferConj, forwardConj, backwardConj};

Tensor conj(const Tensor& x) { return callOp1(kConj, {x}); }

Tensor conjOf(const Tensor& x) { return x.defined() && isComplex(x.dtype()) ? conj(x) : x; }

} // namespace gradstep
