// reshape: y = x viewed with another shape of the same element count (one -1 is inferred).
// dy/dx: the gradient reshaped back to x's shape. The output shares x's storage.
// SPDX-License-Identifier: MIT
#include "ops/dispatch.h"
#include "ops/shape/defs.h"
#include "ops/shape_ops.h"

namespace gradstep {

namespace {
void inferReshape(const OpCall& call, SpecList& out)
{
    const Tensor& x = call.input(0);
    std::vector<std::int64_t> dims = call.attrs.getInts("shape");
    std::int64_t known = 1;
    int inferred = -1;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] == -1) {
            if (inferred >= 0)
                throwValueError(call, "only one dimension can be -1");
            inferred = static_cast<int>(i);
        } else if (dims[i] < 0) {
            throwValueError(call, "dimension " + std::to_string(dims[i]) + " is negative");
        } else if (__builtin_mul_overflow(known, dims[i], &known)) {
            throwShapeError(call, "shape " + attrValueToString(dims) + " has more elements than int64 holds");
        }
    }
    if (inferred >= 0) {
        if (known == 0 || x.numel() % known != 0)
            throwShapeError(call, "cannot infer the -1 dimension for " + std::to_string(x.numel()) + " elements");
        dims[static_cast<std::size_t>(inferred)] = x.numel() / known;
        known *= dims[static_cast<std::size_t>(inferred)];
    }
    if (known != x.numel())
        throwShapeError(call, "cannot reshape " + std::to_string(x.numel()) + " elements into "
                                  + Shape(dims).toString());
    out.push_back({Shape(dims), x.dtype()});
}

void forwardReshape(const OpCall& call, std::span<Tensor> outputs)
{
    SpecList specs;
    inferReshape(call, specs);
    outputs[0] = call.input(0).viewAs(specs[0].shape);
}

TensorList backwardReshape(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {reshape(grads[0], ctx.input(0).shape().toVector())};
}
} // namespace

const OpDef kReshape{"Reshape", "reshape", OpKind::Shape, 1, 1, inferReshape, forwardReshape, backwardReshape, true};

Tensor reshape(const Tensor& x, const std::vector<std::int64_t>& shape)
{
    Attrs attrs;
    attrs.set("shape", shape);
    return callOp1(kReshape, {x}, attrs);
}

} // namespace gradstep
