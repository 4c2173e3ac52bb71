// gather: y[p..., j..., q...] = params[p..., indices[j...], q...] along `axis`, so y's shape is
// params.shape[:axis] + indices.shape + params.shape[axis+1:]. Indices are Int32/Int64 in
// [0, params.shape[axis]); anything else is an IndexError naming the value (no wrap-around of
// negative indices here: getitem normalises them first).
// dy/dparams: the gradient scattered back with UnsortedSegmentSum (repeated indices add up);
// axis > 0 moves the indexed axes first and back with transposes, as MindSpore's bprop does.
// No gradient for the indices. NaN/Inf are carried through untouched.
// SPDX-License-Identifier: MIT
#include "ops/shape/defs.h"
#include "ops/shape/kernels.h"
#include "ops/shape_ops.h"

#include <cstring>
#include <numeric>

namespace gradstep {

namespace {
void inferGather(const OpCall& call, SpecList& out)
{
    const Tensor& params = call.input(0);
    const Tensor& indices = call.input(1);
    const int axis = checkedAxis(call, call.attrs.getInt("axis", 0), params.rank());
    if (indices.dtype() != DType::Int32 && indices.dtype() != DType::Int64)
        throwInputDType(call, 1, kIndexDTypes);
    if (params.rank() - 1 + indices.rank() > Shape::kMaxRank)
        throwShapeError(call, "the result would have rank " + std::to_string(params.rank() - 1 + indices.rank())
                                  + ", more than " + std::to_string(Shape::kMaxRank));
    Shape shape;
    for (int a = 0; a < axis; ++a)
        shape.push_back(params.shape()[a]);
    for (std::int64_t d : indices.shape())
        shape.push_back(d);
    for (int a = axis + 1; a < params.rank(); ++a)
        shape.push_back(params.shape()[a]);
    out.push_back({shape, params.dtype()});
}

void forwardGather(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& params = call.input(0);
    const Tensor& indices = call.input(1);
    const int axis = checkedAxis(call, call.attrs.getInt("axis", 0), params.rank());
    const std::int64_t outer = dimProduct(params.shape(), 0, axis);
    const std::int64_t dim = params.shape()[axis];
    const auto rowBytes = static_cast<std::size_t>(dimProduct(params.shape(), axis + 1, params.rank()))
                          * itemSize(params.dtype());
    // The range check reads index values, so it is the kernel's (a shape rule sees only shapes,
    // which is all graph mode knows when it builds the node).
    const std::vector<std::int64_t> index = indexValues(indices);
    for (const std::int64_t i : index)
        if (i < 0 || i >= dim)
            throwIndexError(call, "index " + std::to_string(i) + " is out of range [0, " + std::to_string(dim)
                                      + ") for axis " + std::to_string(axis));
    if (rowBytes == 0)
        return;
    const auto* src = static_cast<const unsigned char*>(params.rawData());
    auto* dst = static_cast<unsigned char*>(outputs[0].rawData());
    for (std::int64_t o = 0; o < outer; ++o)
        for (const std::int64_t j : index) {
            const auto row = static_cast<std::size_t>(o * dim + j);
            std::memcpy(dst, src + row * rowBytes, rowBytes);
            dst += rowBytes;
        }
}

// Permutation moving axes [from, from + count) to the front, keeping the others in order.
std::vector<std::int64_t> frontPermutation(int rank, int from, int count)
{
    std::vector<std::int64_t> perm(static_cast<std::size_t>(rank));
    std::iota(perm.begin(), perm.begin() + count, from);
    std::iota(perm.begin() + count, perm.begin() + count + from, 0);
    std::iota(perm.begin() + count + from, perm.end(), from + count);
    return perm;
}

TensorList backwardGather(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& params = ctx.input(0);
    const Tensor& indices = ctx.input(1);
    const int axis = normalizeAxis(ctx.attrs().getInt("axis", 0), params.rank(), "Gather");
    const std::int64_t dim = params.shape()[axis];
    Tensor g = grads[0];
    if (axis == 0)
        return {unsortedSegmentSum(g, indices, dim), Tensor()};
    if (indices.rank() > 0)
        g = transpose(g, frontPermutation(g.rank(), axis, indices.rank()));
    Tensor summed = unsortedSegmentSum(g, indices, dim);
    // summed is (dim,) + params.shape[:axis] + params.shape[axis+1:]: move dim back to `axis`.
    std::vector<std::int64_t> perm;
    for (int a = 1; a <= axis; ++a)
        perm.push_back(a);
    perm.push_back(0);
    for (int a = axis + 1; a < summed.rank(); ++a)
        perm.push_back(a);
    return {transpose(summed, perm), Tensor()};
}
} // namespace

const OpDef kGather{"Gather", "gather", OpKind::Shape, 2, 2, inferGather, forwardGather, backwardGather, false, 1};

Tensor gather(const Tensor& params, const Tensor& indices, std::int64_t axis)
{
    Attrs attrs;
    attrs.set("axis", axis);
    return callOp1(kGather, {params, indices}, attrs);
}

} // namespace gradstep
