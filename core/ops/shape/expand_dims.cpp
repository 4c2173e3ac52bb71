// expand_dims: y = x with a new axis of size 1 inserted at `axis` (in [-rank - 1, rank]).
// dy/dx: the gradient reshaped back to x's shape. The output shares x's storage.
// SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"

namespace gradstep {

namespace {
void inferExpandDims(const OpCall& call, SpecList& out)
{
    const Tensor& x = call.input(0);
    const int axis = checkedInsertAxis(call, call.attrs.getInt("axis"), x.rank());
    Shape shape;
    for (int a = 0; a <= x.rank(); ++a) {
        if (a == axis)
            shape.push_back(1);
        if (a < x.rank())
            shape.push_back(x.shape()[a]);
    }
    out.push_back({shape, x.dtype()});
}

void forwardExpandDims(const OpCall& call, std::span<Tensor> outputs)
{
    SpecList specs;
    inferExpandDims(call, specs);
    outputs[0] = call.input(0).viewAs(specs[0].shape);
}

TensorList backwardExpandDims(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {reshape(grads[0], ctx.input(0).shape().toVector())};
}
} // namespace

const OpDef kExpandDims{"ExpandDims", "expand_dims", OpKind::Shape, 1, 1, inferExpandDims, forwardExpandDims,
                        backwardExpandDims, true};

Tensor expandDims(const Tensor& x, std::int64_t axis)
{
    Attrs attrs;
    attrs.set("axis", axis);
    return callOp1(kExpandDims, {x}, attrs);
}

} // namespace gradstep
