// transpose: y[i_0, ..., i_{n-1}] = x[j] with j[perm[a]] = i_a, i.e. y's axis a is x's axis
// perm[a]; an empty perm reverses the axes.  dy/dx: the gradient transposed by the inverse
// permutation. A pure data movement, so NaN/Inf are carried through untouched.
// SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"
#include "tensor/dtype_storage.h"

namespace gradstep {

namespace {
std::vector<int> permutation(const OpCall& call)
{
    const int rank = call.input(0).rank();
    const std::vector<std::int64_t> perm = call.attrs.getInts("perm", {});
    std::vector<int> out;
    if (perm.empty()) {
        for (int a = rank - 1; a >= 0; --a)
            out.push_back(a);
        return out;
    }
    if (static_cast<int>(perm.size()) != rank)
        throwValueError(call, "perm needs one entry per axis (" + std::to_string(rank) + "), got "
                                  + std::to_string(perm.size()));
    std::vector<bool> seen(static_cast<std::size_t>(rank), false);
    for (std::int64_t p : perm) {
        const int axis = checkedAxis(call, p, rank);
        if (seen[static_cast<std::size_t>(axis)])
            throwValueError(call, "perm repeats axis " + std::to_string(p));
        seen[static_cast<std::size_t>(axis)] = true;
        out.push_back(axis);
    }
    return out;
}

void inferTranspose(const OpCall& call, SpecList& out)
{
    const Shape& in = call.input(0).shape();
    Shape shape;
    for (int axis : permutation(call))
        shape.push_back(in[axis]);
    out.push_back({shape, call.input(0).dtype()});
}

void forwardTranspose(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    const std::vector<int> perm = permutation(call);
    const AxisStrides dense = contiguousStrides(x.shape());
    AxisStrides strides{};
    for (std::size_t a = 0; a < perm.size(); ++a)
        strides[a] = dense[static_cast<std::size_t>(perm[a])];
    visitDataDType(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        gatherStrided<T>(static_cast<const T*>(x.rawData()), static_cast<T*>(outputs[0].rawData()),
                         outputs[0].shape(), 0, strides);
    });
}

TensorList backwardTranspose(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const std::vector<std::int64_t> perm = ctx.attrs().getInts("perm", {});
    if (perm.empty())
        return {transpose(grads[0])};
    const auto rank = static_cast<std::int64_t>(perm.size());
    std::vector<std::int64_t> inverse(perm.size());
    for (std::int64_t a = 0; a < rank; ++a) {
        const std::int64_t p = perm[static_cast<std::size_t>(a)];
        inverse[static_cast<std::size_t>(p < 0 ? p + rank : p)] = a;
    }
    return {transpose(grads[0], inverse)};
}
} // namespace

const OpDef kTranspose{"Transpose", "transpose", OpKind::Shape, 1, 1, inferTranspose, forwardTranspose,
                       backwardTranspose};

Tensor transpose(const Tensor& x, std::vector<std::int64_t> perm)
{
    Attrs attrs;
    attrs.set("perm", std::move(perm));
    return callOp1(kTranspose, {x}, attrs);
}

} // namespace gradstep
