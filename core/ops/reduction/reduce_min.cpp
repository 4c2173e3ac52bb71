// reduce_min: y = min of x over `axis` (all axes when empty).
// dy/dx_i = [x_i == y] / (number of elements equal to y in x_i's slice): at a tie the gradient
// is split evenly among the tied minima. NaN wins the reduction (as np.min); a slice whose min
// is NaN gets a NaN gradient. An empty reduction is a ValueError (no identity). Integer inputs
// reduce but get no gradient. SPDX-License-Identifier: MIT
#include "ops/reduction.h"
#include "ops/reduction/defs.h"
#include "ops/reduction/kernels.h"

namespace gradstep {

namespace {
TensorList backwardReduceMin(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {extremumGrad(ctx, grads[0], "ReduceMin")};
}
} // namespace

const OpDef kReduceMin{"ReduceMin", "reduce_min", OpKind::Reduction, 1, 1, inferExtremum, forwardExtremum<false>,
                       backwardReduceMin};

Tensor reduceMin(const Tensor& x, std::vector<std::int64_t> axis, bool keepDims)
{
    Attrs attrs;
    attrs.set("axis", std::move(axis)).set("keep_dims", keepDims);
    return callOp1(kReduceMin, {x}, attrs);
}

} // namespace gradstep
