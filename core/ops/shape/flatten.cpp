// flatten: y = x viewed as (N, prod(rest)) for x of shape (N, ...); a 1-D (N,) becomes (N, 1) as
// MindSpore's Flatten does, and a 0-D input is a ShapeError. dy/dx: the gradient reshaped back.
// The output shares x's storage. SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"

namespace gradstep {

namespace {
void inferFlatten(const OpCall& call, SpecList& out)
{
    const Tensor& x = call.input(0);
    if (x.rank() == 0)
        throwShapeError(call, "input must have at least 1 dimension, got a 0-D tensor");
    out.push_back({Shape{x.shape()[0], dimProduct(x.shape(), 1, x.rank())}, x.dtype()});
}

void forwardFlatten(const OpCall& call, std::span<Tensor> outputs)
{
    SpecList specs;
    inferFlatten(call, specs);
    outputs[0] = call.input(0).viewAs(specs[0].shape);
}

TensorList backwardFlatten(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {reshape(grads[0], ctx.input(0).shape().toVector())};
}
} // namespace

const OpDef kFlatten{"Flatten", "flatten", OpKind::Shape, 1, 1, inferFlatten, forwardFlatten, backwardFlatten, true};

Tensor flatten(const Tensor& x) { return callOp1(kFlatten, {x}); }

} // namespace gradstep
