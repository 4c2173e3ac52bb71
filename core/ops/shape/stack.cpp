// stack: y = the inputs (all of one shape and dtype) joined along a new axis `axis`, in
// [-rank - 1, rank]. dy/dx_i: the gradient's slice i along that axis, reshaped to x_i's shape
// (one Split of the gradient). A pure data movement: NaN/Inf are carried through untouched.
// SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"

#include <cstring>

namespace gradstep {

namespace {
void inferStack(const OpCall& call, SpecList& out)
{
    const Tensor& first = call.input(0);
    const int axis = checkedInsertAxis(call, call.attrs.getInt("axis", 0), first.rank());
    for (std::size_t i = 1; i < call.inputs.size(); ++i) {
        const Tensor& x = call.input(i);
        if (x.dtype() != first.dtype())
            throwDTypeError(call, "input " + std::to_string(i) + " has dtype " + std::string(dtypeName(x.dtype()))
                                      + ", expected " + std::string(dtypeName(first.dtype())) + " like input 0");
        if (!(x.shape() == first.shape()))
            throwShapeError(call, "input " + std::to_string(i) + " has shape " + x.shape().toString()
                                      + ", expected " + first.shape().toString() + " like input 0");
    }
    Shape shape;
    for (int a = 0; a <= first.rank(); ++a) {
        if (a == axis)
            shape.push_back(static_cast<std::int64_t>(call.inputs.size()));
        if (a < first.rank())
            shape.push_back(first.shape()[a]);
    }
    out.push_back({shape, first.dtype()});
}

void forwardStack(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& first = call.input(0);
    const int axis = checkedInsertAxis(call, call.attrs.getInt("axis", 0), first.rank());
    const std::int64_t outer = dimProduct(first.shape(), 0, axis);
    const auto chunk = static_cast<std::size_t>(dimProduct(first.shape(), axis, first.rank())) * itemSize(first.dtype());
    if (chunk == 0)
        return;
    auto* dst = static_cast<unsigned char*>(outputs[0].rawData());
    for (std::int64_t o = 0; o < outer; ++o)
        for (const Tensor& x : call.inputs) {
            std::memcpy(dst, static_cast<const unsigned char*>(x.rawData()) + static_cast<std::size_t>(o) * chunk, chunk);
            dst += chunk;
        }
}

TensorList backwardStack(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const std::size_t n = ctx.inputCount();
    const std::vector<std::int64_t> shape = ctx.input(0).shape().toVector();
    const std::int64_t axis = ctx.attrs().getInt("axis", 0);
    TensorList parts = split(grads[0], axis, static_cast<std::int64_t>(n));
    for (std::size_t i = 0; i < n; ++i)
        parts[i] = ctx.needsGrad(i) && carriesGradient(ctx.input(i).dtype()) ? reshape(parts[i], shape) : Tensor();
    return parts;
}
} // namespace

const OpDef kStack{"Stack", "stack", OpKind::Shape, 1, -1, inferStack, forwardStack, backwardStack};

Tensor stack(const TensorList& xs, std::int64_t axis)
{
    Attrs attrs;
    attrs.set("axis", axis);
    return callOp1(kStack, std::span<const Tensor>(xs), attrs);
}

} // namespace gradstep
