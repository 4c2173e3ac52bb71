// Shared by Real, Imag and Conj. SPDX-License-Identifier: MIT
#include "ops/elementwise/complex_parts.h"

#include "ops/elementwise.h"
#include "ops/shape_ops.h"

namespace gradstep {

void inferComplexPart(const OpCall& call, SpecList& out, bool toPart)
{
    const Tensor& x = call.input(0);
    out.push_back({x.shape(), toPart ? complexPart(x.dtype()) : x.dtype()});
}

Tensor complexPartGrad(const Tensor& x, const Tensor& g, bool imaginary)
{
    if (!isComplex(x.dtype()))
        return imaginary ? zerosLike(g) : g;
    const DType part = complexPart(x.dtype());
    const Tensor gp = g.dtype() == part ? g : cast(g, part);
    return imaginary ? complex(zerosLike(gp), gp) : complex(gp, zerosLike(gp));
}

} // namespace gradstep
