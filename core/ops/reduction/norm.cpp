// norm: y = (sum of |x|^p over `axis`)^(1/p), the p-norm (p >= 1, finite; default 2; all axes
// when `axis` is empty). Float inputs only. Sums accumulate in double; an empty reduction is 0.
// dy/dx = sign(x) |x|^(p-1) / y^(p-1); for p = 2 that is x / y, for p = 1 sign(x).
// At an all-zero slice (y = 0) the norm has a kink and the gradient is taken as 0, not 0/0 = NaN
// (the subgradient of least norm, as PyTorch does); within a non-zero slice, elements equal to 0
// get 0 for every p >= 1 (sign(0) = 0). NaN in x propagates to y and to the gradient.
// The rule is written with ops, so grad of grad works away from those kinks.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/reduction.h"
#include "ops/reduction/defs.h"
#include "ops/reduction/kernels.h"
#include "ops/shape_ops.h"

#include <cmath>
#include <vector>

namespace gradstep {

namespace {
double normOrder(const OpCall& call)
{
    const double p = call.attrs.getFloat("p", 2.0);
    if (!(p >= 1.0) || std::isinf(p))
        throwValueError(call, "p must be finite and at least 1, got " + attrValueToString(p));
    return p;
}

void inferNorm(const OpCall& call, SpecList& out)
{
    if (!isFloating(call.input(0).dtype()))
        throwInputDType(call, 0, kFloatDTypes);
    normOrder(call);
    inferReduce(call, out);
}

void forwardNorm(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    Tensor& out = outputs[0];
    const double p = normOrder(call);
    std::vector<double> sums(static_cast<std::size_t>(out.numel()), 0.0);
    visitFloat(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const auto reduced = reducedAxes(call, x);
        if (p == 2.0)
            reduceInto<T>(x, reduced, sums.data(), [](double acc, T v) { return acc + double(v) * double(v); });
        else if (p == 1.0)
            reduceInto<T>(x, reduced, sums.data(), [](double acc, T v) { return acc + std::abs(double(v)); });
        else
            reduceInto<T>(x, reduced, sums.data(), [p](double acc, T v) { return acc + std::pow(std::abs(double(v)), p); });
        T* po = static_cast<T*>(out.rawData());
        for (std::size_t i = 0; i < sums.size(); ++i)
            po[i] = static_cast<T>(p == 2.0 ? std::sqrt(sums[i]) : p == 1.0 ? sums[i] : std::pow(sums[i], 1.0 / p));
    });
}

TensorList backwardNorm(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& x = ctx.input(0);
    const double p = ctx.attrs().getFloat("p", 2.0);
    const std::vector<std::int64_t> kept = keptDims(x, ctx.attrs(), "Norm");
    const Tensor g = reshape(grads[0], kept);
    if (p == 1.0)
        return {mul(sign(x), g)};
    const Tensor y = reshape(ctx.output(0), kept);
    // y = 0 only where the whole slice is 0; dividing by 1 there keeps the 0 numerator's gradient.
    const Tensor safeY = add(y, cast(equal(y, scalarLike(0.0, y)), y.dtype()));
    if (p == 2.0)
        return {mul(x, div(g, safeY))};
    const Tensor power = scalarLike(p - 1.0, x);
    return {mul(mul(sign(x), pow(abs(x), power)), div(g, pow(safeY, power)))};
}
} // namespace

const OpDef kNorm{"Norm", "norm", OpKind::Reduction, 1, 1, inferNorm, forwardNorm, backwardNorm};

Tensor norm(const Tensor& x, std::vector<std::int64_t> axis, double p, bool keepDims)
{
    Attrs attrs;
    attrs.set("axis", std::move(axis)).set("p", p).set("keep_dims", keepDims);
    return callOp1(kNorm, {x}, attrs);
}

} // namespace gradstep
