// argmin: y = the index of the first minimum of x along `axis` (default -1), Int32. NaN counts
// as the minimum, so the first NaN wins, as in NumPy. A 0-D x gives 0. An empty axis (with a
// non-empty result) is a ValueError. Not differentiable: the output is an integer.
// SPDX-License-Identifier: MIT
#include "ops/reduction.h"
#include "ops/reduction/defs.h"
#include "ops/reduction/kernels.h"

namespace gradstep {

namespace {
void forwardArgmin(const OpCall& call, std::span<Tensor> outputs) { forwardArgExtremum<false>(call, outputs); }
} // namespace

const OpDef kArgmin{"Argmin", "argmin", OpKind::Reduction, 1, 1, inferArgExtremum, forwardArgmin, nullptr};

Tensor argmin(const Tensor& x, std::int64_t axis, bool keepDims)
{
    Attrs attrs;
    attrs.set("axis", axis).set("keep_dims", keepDims);
    return callOp1(kArgmin, {x}, attrs);
}

} // namespace gradstep
