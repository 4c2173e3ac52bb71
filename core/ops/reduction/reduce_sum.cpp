// reduce_sum: y = sum of x over `axis` (all axes when empty).  dy/dx = 1: the gradient is the
// incoming gradient broadcast back over the reduced axes. Integer sums stay integers and wrap
// around on overflow, as the elementwise integer kernels do.
// SPDX-License-Identifier: MIT
#include "ops/elementwise/kernels.h"
#include "ops/reduction.h"
#include "ops/reduction/defs.h"
#include "ops/reduction/kernels.h"
#include "ops/shape_ops.h"

#include <cstring>

namespace gradstep {

namespace {
void forwardReduceSum(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    Tensor& out = outputs[0];
    std::memset(out.rawData(), 0, out.nbytes());
    const auto reduced = reducedAxes(call, x);
    visitDataDType(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        reduceInto<T>(x, reduced, static_cast<T*>(out.rawData()), [](T acc, T v) { return wrapAdd(acc, v); });
    });
}

TensorList backwardReduceSum(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& x = ctx.input(0);
    Tensor g = reshape(grads[0], keptDims(x, ctx.attrs(), "ReduceSum"));
    return {broadcastTo(g, x.shape().toVector())};
}
} // namespace

const OpDef kReduceSum{"ReduceSum", "reduce_sum", OpKind::Reduction, 1, 1, inferReduce, forwardReduceSum,
                       backwardReduceSum};

Tensor reduceSum(const Tensor& x, std::vector<std::int64_t> axis, bool keepDims)
{
    Attrs attrs;
    attrs.set("axis", std::move(axis)).set("keep_dims", keepDims);
    return callOp1(kReduceSum, {x}, attrs);
}

} // namespace gradstep
