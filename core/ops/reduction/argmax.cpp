// argmax: y = the index of the first maximum of x along `axis` (default -1), Int32 (MindSpore's
// default output type). NaN counts as the maximum, so the first NaN wins, as in NumPy. A 0-D x
// gives 0. An empty axis (with a non-empty result) is a ValueError. Not differentiable: the
// output is an integer, piecewise constant in x. SPDX-License-Identifier: MIT
#include "ops/reduction.h"
#include "ops/reduction/defs.h"
#include "ops/reduction/kernels.h"

namespace gradstep {

namespace {
void forwardArgmax(const OpCall& call, std::span<Tensor> outputs) { forwardArgExtremum<true>(call, outputs); }
} // namespace

const OpDef kArgmax{"Argmax", "argmax", OpKind::Reduction, 1, 1, inferArgExtremum, forwardArgmax, nullptr};

Tensor argmax(const Tensor& x, std::int64_t axis, bool keepDims)
{
    Attrs attrs;
    attrs.set("axis", axis).set("keep_dims", keepDims);
    return callOp1(kArgmax, {x}, attrs);
}

} // namespace gradstep
