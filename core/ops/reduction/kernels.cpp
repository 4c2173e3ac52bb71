// Shared machinery of the reductions. SPDX-License-Identifier: MIT
#include "ops/reduction/kernels.h"

#include "ops/elementwise.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

namespace gradstep {

std::array<bool, Shape::kMaxRank> reducedAxes(const OpCall& call, const Tensor& x)
{
    std::array<bool, Shape::kMaxRank> reduced{};
    const std::vector<std::int64_t> axes = call.attrs.getInts("axis", {});
    if (axes.empty()) {
        reduced.fill(true);
        return reduced;
    }
    // A repeated axis reduces once: MindSpore's reduce shape inference sorts and dedupes the
    // axes ((0, 1, -2) of a rank-3 input reduces axes 0 and 1).
    for (std::int64_t a : axes) {
        const int axis = normalizeAxis(a, x.rank(), call.op.name);
        if (x.rank() == 0)
            continue;
        reduced[static_cast<std::size_t>(axis)] = true;
    }
    return reduced;
}

Shape keptShape(const Shape& in, const std::array<bool, Shape::kMaxRank>& reduced)
{
    Shape out;
    for (int a = 0; a < in.rank(); ++a)
        out.push_back(reduced[static_cast<std::size_t>(a)] ? 1 : in[a]);
    return out;
}

Shape reducedShape(const Shape& in, const std::array<bool, Shape::kMaxRank>& reduced, bool keepDims)
{
    if (keepDims)
        return keptShape(in, reduced);
    Shape out;
    for (int a = 0; a < in.rank(); ++a)
        if (!reduced[static_cast<std::size_t>(a)])
            out.push_back(in[a]);
    return out;
}

void inferReduce(const OpCall& call, SpecList& out)
{
    const Tensor& x = call.input(0);
    if (x.dtype() == DType::Bool)
        throwInputDType(call, 0, kNumberDTypes);
    out.push_back({reducedShape(x.shape(), reducedAxes(call, x), call.attrs.getBool("keep_dims", false)), x.dtype()});
}

std::int64_t reducedCount(const Shape& in, const std::array<bool, Shape::kMaxRank>& reduced)
{
    std::int64_t n = 1;
    for (int a = 0; a < in.rank(); ++a)
        if (reduced[static_cast<std::size_t>(a)])
            n *= in[a];
    return n;
}

std::vector<std::int64_t> axisList(const Attrs& attrs) { return attrs.getInts("axis", {}); }

std::vector<std::int64_t> keptDims(const Tensor& x, const Attrs& attrs, std::string_view op)
{
    const std::vector<std::int64_t> axes = axisList(attrs);
    std::array<bool, Shape::kMaxRank> reduced{};
    if (axes.empty())
        reduced.fill(true);
    for (std::int64_t a : axes)
        if (x.rank() > 0)
            reduced[static_cast<std::size_t>(normalizeAxis(a, x.rank(), op))] = true;
    return keptShape(x.shape(), reduced).toVector();
}

void inferArgExtremum(const OpCall& call, SpecList& out)
{
    const Tensor& x = call.input(0);
    if (x.dtype() == DType::Bool)
        throwInputDType(call, 0, kNumberDTypes);
    const int axis = normalizeAxis(call.attrs.getInt("axis", -1), x.rank(), call.op.name);
    const bool keepDims = call.attrs.getBool("keep_dims", false);
    Shape shape;
    for (int a = 0; a < x.rank(); ++a)
        if (a != axis || keepDims)
            shape.push_back(a == axis ? 1 : x.shape()[a]);
    if (x.rank() > 0 && x.shape()[axis] > std::numeric_limits<std::int32_t>::max())
        throwValueError(call, "axis " + std::to_string(axis) + " is too long for Int32 indices");
    if (x.rank() > 0 && x.shape()[axis] == 0 && shape.numel() > 0)
        throwValueError(call, "cannot take the " + std::string(call.op.label) + " of an empty axis "
                                  + std::to_string(axis));
    out.push_back({shape, DType::Int32});
}

void inferExtremum(const OpCall& call, SpecList& out)
{
    inferReduce(call, out);
    const Tensor& x = call.input(0);
    if (reducedCount(x.shape(), reducedAxes(call, x)) == 0 && out[0].shape.numel() > 0)
        throwValueError(call, "cannot reduce an empty axis: the " + std::string(call.op.label)
                                  + " of zero elements is undefined");
}

Tensor extremumGrad(const BackwardContext& ctx, const Tensor& grad, std::string_view op)
{
    const Tensor& x = ctx.input(0);
    if (!ctx.needsGrad(0) || !carriesGradient(x.dtype()))
        return Tensor();
    const std::vector<std::int64_t> kept = keptDims(x, ctx.attrs(), op);
    // The tie mask is piecewise constant in x, so grad of grad sees only the linear part in grad.
    // Ties share the gradient: computed in float for integer x (the engine casts it back).
    const DType type = isFloating(x.dtype()) ? x.dtype() : DType::Float32;
    const Tensor mask = cast(equal(x, reshape(ctx.output(0), kept)), type);
    const Tensor ties = reduceSum(mask, axisList(ctx.attrs()), true);
    const Tensor g = reshape(grad, kept);
    return mul(mask, div(g.dtype() == type ? g : cast(g, type), ties));
}

} // namespace gradstep
