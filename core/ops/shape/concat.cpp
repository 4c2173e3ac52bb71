// concat: y = the inputs joined along `axis`; every other dimension and the dtype must agree.
// dy/dx_i: the slice of the gradient that x_i filled (one Split of the gradient by the inputs'
// sizes); integer inputs get none. A pure data movement: NaN/Inf are carried through untouched.
// SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"

#include <cstring>

namespace gradstep {

namespace {
void inferConcat(const OpCall& call, SpecList& out)
{
    const Tensor& first = call.input(0);
    const int axis = checkedAxis(call, call.attrs.getInt("axis", 0), first.rank());
    Shape shape = first.shape();
    for (std::size_t i = 1; i < call.inputs.size(); ++i) {
        const Tensor& x = call.input(i);
        if (x.dtype() != first.dtype())
            throwDTypeError(call, "input " + std::to_string(i) + " has dtype " + std::string(dtypeName(x.dtype()))
                                      + ", expected " + std::string(dtypeName(first.dtype())) + " like input 0");
        bool same = x.rank() == first.rank();
        for (int a = 0; same && a < x.rank(); ++a)
            same = a == axis || x.shape()[a] == first.shape()[a];
        if (!same)
            throwShapeError(call, "input " + std::to_string(i) + " has shape " + x.shape().toString()
                                      + ", expected " + first.shape().toString() + " except along axis "
                                      + std::to_string(axis));
        shape[axis] += x.shape()[axis];
    }
    out.push_back({shape, first.dtype()});
}

void forwardConcat(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& first = call.input(0);
    const int axis = checkedAxis(call, call.attrs.getInt("axis", 0), first.rank());
    const std::size_t item = itemSize(first.dtype());
    const std::int64_t outer = dimProduct(first.shape(), 0, axis);
    auto* dst = static_cast<unsigned char*>(outputs[0].rawData());
    for (std::int64_t o = 0; o < outer; ++o)
        for (const Tensor& x : call.inputs) {
            const auto chunk = static_cast<std::size_t>(dimProduct(x.shape(), axis, x.rank())) * item;
            if (chunk == 0)
                continue;
            std::memcpy(dst, static_cast<const unsigned char*>(x.rawData()) + static_cast<std::size_t>(o) * chunk, chunk);
            dst += chunk;
        }
}

TensorList backwardConcat(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const std::size_t n = ctx.inputCount();
    const std::int64_t axis = ctx.attrs().getInt("axis", 0);
    TensorList parts;
    if (n == 1) {
        parts.push_back(grads[0]);
    } else {
        std::vector<std::int64_t> sizes;
        for (std::size_t i = 0; i < n; ++i)
            sizes.push_back(ctx.input(i).shape()[normalizeAxis(axis, ctx.input(i).rank(), "Concat")]);
        parts = splitSizes(grads[0], axis, sizes);
    }
    for (std::size_t i = 0; i < n; ++i)
        if (!ctx.needsGrad(i) || !carriesGradient(ctx.input(i).dtype()))
            parts[i] = Tensor();
    return parts;
}
} // namespace

const OpDef kConcat{"Concat", "concat", OpKind::Shape, 1, -1, inferConcat, forwardConcat, backwardConcat};

Tensor concat(const TensorList& xs, std::int64_t axis)
{
    Attrs attrs;
    attrs.set("axis", axis);
    return callOp1(kConcat, std::span<const Tensor>(xs), attrs);
}

} // namespace gradstep
