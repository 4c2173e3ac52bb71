// reduce_max: y = max of x over `axis` (all axes when empty).
// dy/dx_i = [x_i == y] / (number of elements equal to y in x_i's slice): at a tie the gradient
// is split evenly among the tied maxima (so it still sums to dy), unlike PyTorch's max(dim),
// which picks one. NaN wins the reduction (as np.max); a slice whose max is NaN then has no
// element equal to it and gets a NaN gradient. An empty reduction is a ValueError (no identity).
// Integer inputs reduce but get no gradient. SPDX-License-Identifier: MIT
#include "ops/reduction.h"
#include "ops/reduction/defs.h"
#include "ops/reduction/kernels.h"

namespace gradstep {

namespace {
TensorList backwardReduceMax(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {extremumGrad(ctx, grads[0], "ReduceMax")};
}
} // namespace

const OpDef kReduceMax{"ReduceMax", "reduce_max", OpKind::Reduction, 1, 1, inferExtremum, forwardExtremum<true>,
                       backwardReduceMax};

Tensor reduceMax(const Tensor& x, std::vector<std::int64_t> axis, bool keepDims)
{
    Attrs attrs;
    attrs.set("axis", std::move(axis)).set("keep_dims", keepDims);
    return callOp1(kReduceMax, {x}, attrs);
}

} // namespace gradstep
