// Shared machinery of the reductions. SPDX-License-Identifier: MIT
#include "ops/reduction/kernels.h"

namespace gradstep {

std::array<bool, Shape::kMaxRank> reducedAxes(const OpCall& call, const Tensor& x)
{
    std::array<bool, Shape::kMaxRank> reduced{};
    const std::vector<std::int64_t> axes = call.attrs.getInts("axis", {});
    if (axes.empty()) {
        reduced.fill(true);
        return reduced;
    }
    for (std::int64_t a : axes) {
        const int axis = normalizeAxis(a, x.rank(), call.op.name);
        if (x.rank() == 0)
            continue;
        if (reduced[static_cast<std::size_t>(axis)])
            throwValueError(call, "axis " + std::to_string(a) + " is repeated");
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
        throwDTypeError(call, "input must be a number tensor, not Bool");
    out.push_back({reducedShape(x.shape(), reducedAxes(call, x), call.attrs.getBool("keep_dims", false)), x.dtype()});
}

} // namespace gradstep
