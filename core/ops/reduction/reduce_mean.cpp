// reduce_mean: y = (sum of x over `axis`) / n, n = the number of elements folded into each y
// (all axes when `axis` is empty). dy/dx = 1/n: the gradient broadcast back over the reduced
// axes and scaled. Float inputs only: an integer mean is a DTypeError rather than a silent
// truncation or promotion (cast first). Sums accumulate in double. An empty reduction gives
// NaN (0/0), as NumPy does; NaN/Inf in x propagate. SPDX-License-Identifier: MIT
#include "ops/complex_support.h"
#include "ops/elementwise.h"
#include "ops/reduction.h"
#include "ops/reduction/defs.h"
#include "ops/reduction/kernels.h"
#include "ops/shape_ops.h"
#include "tensor/dtype_storage.h"

#include <vector>

namespace gradstep {

namespace {
void inferReduceMean(const OpCall& call, SpecList& out)
{
    if (!isFloating(call.input(0).dtype()) && !isComplex(call.input(0).dtype()))
        throwInputDType(call, 0, inexactDTypes(call.op));
    inferReduce(call, out);
}

void forwardReduceMean(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    Tensor& out = outputs[0];
    const auto reduced = reducedAxes(call, x);
    const auto count = static_cast<double>(reducedCount(x.shape(), reduced));
    if (isComplex(x.dtype())) {
        // Summed in complex<double> as the real path sums in double.
        std::vector<std::complex<double>> sums(static_cast<std::size_t>(out.numel()));
        visitComplex(x.dtype(), [&](auto* tag) {
            using T = std::remove_pointer_t<decltype(tag)>;
            reduceInto<T>(x, reduced, sums.data(),
                          [](std::complex<double> acc, T v) { return acc + std::complex<double>(v); });
            T* po = static_cast<T*>(out.rawData());
            for (std::size_t i = 0; i < sums.size(); ++i)
                po[i] = static_cast<T>(sums[i] / count);
        });
        return;
    }
    std::vector<double> sums(static_cast<std::size_t>(out.numel()), 0.0);
    visitFloat(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        reduceInto<T>(x, reduced, sums.data(), [](double acc, T v) { return acc + static_cast<double>(v); });
        T* po = static_cast<T*>(out.rawData());
        for (std::size_t i = 0; i < sums.size(); ++i)
            po[i] = static_cast<T>(sums[i] / count);
    });
}

TensorList backwardReduceMean(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& x = ctx.input(0);
    const std::vector<std::int64_t> kept = keptDims(x, ctx.attrs(), "ReduceMean");
    // Axes that changed size are the reduced ones (a reduced axis of size 1 adds a factor of 1).
    std::int64_t count = 1;
    for (int a = 0; a < x.rank(); ++a)
        if (kept[static_cast<std::size_t>(a)] != x.shape()[a])
            count *= x.shape()[a];
    // With count 0, x is empty: no element receives the scale.
    const Tensor scaled = mul(reshape(grads[0], kept), scalarLike(count > 0 ? 1.0 / static_cast<double>(count) : 0.0, x));
    return {broadcastTo(scaled, x.shape().toVector())};
}
} // namespace

const OpDef kReduceMean{"ReduceMean", "reduce_mean", OpKind::Reduction, 1, 1, inferReduceMean, forwardReduceMean,
                        backwardReduceMean};

Tensor reduceMean(const Tensor& x, std::vector<std::int64_t> axis, bool keepDims)
{
    Attrs attrs;
    attrs.set("axis", std::move(axis)).set("keep_dims", keepDims);
    return callOp1(kReduceMean, {x}, attrs);
}

} // namespace gradstep
