// squeeze: y = x without the listed axes of size 1 (every axis of size 1 when `axis` is empty).
// Squeezing an axis whose size is not 1 is a ShapeError. dy/dx: the gradient reshaped back to
// x's shape. The output shares x's storage. SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"

namespace gradstep {

namespace {
void inferSqueeze(const OpCall& call, SpecList& out)
{
    const Tensor& x = call.input(0);
    const std::vector<std::int64_t> axes = call.attrs.getInts("axis", {});
    std::array<bool, Shape::kMaxRank> drop{};
    for (int a = 0; a < x.rank() && axes.empty(); ++a)
        drop[static_cast<std::size_t>(a)] = x.shape()[a] == 1;
    for (std::int64_t requested : axes) {
        const int a = checkedAxis(call, requested, x.rank());
        if (drop[static_cast<std::size_t>(a)])
            throwValueError(call, "axis " + std::to_string(requested) + " is repeated");
        if (x.shape()[a] != 1)
            throwShapeError(call, "cannot squeeze axis " + std::to_string(requested) + " of size "
                                      + std::to_string(x.shape()[a]) + ", expected size 1");
        drop[static_cast<std::size_t>(a)] = true;
    }
    Shape shape;
    for (int a = 0; a < x.rank(); ++a)
        if (!drop[static_cast<std::size_t>(a)])
            shape.push_back(x.shape()[a]);
    out.push_back({shape, x.dtype()});
}

void forwardSqueeze(const OpCall& call, std::span<Tensor> outputs)
{
    SpecList specs;
    inferSqueeze(call, specs);
    outputs[0] = call.input(0).viewAs(specs[0].shape);
}

TensorList backwardSqueeze(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {reshape(grads[0], ctx.input(0).shape().toVector())};
}
} // namespace

const OpDef kSqueeze{"Squeeze", "squeeze", OpKind::Shape, 1, 1, inferSqueeze, forwardSqueeze, backwardSqueeze, true};

Tensor squeeze(const Tensor& x, std::vector<std::int64_t> axis)
{
    Attrs attrs;
    attrs.set("axis", std::move(axis));
    return callOp1(kSqueeze, {x}, attrs);
}

} // namespace gradstep
