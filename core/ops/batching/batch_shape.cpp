// Batching rules of shape and indexing ops: the batch axis is kept in front of the element's
// axes, whose attributes (axes, shapes, slices, permutations) move past it.
// SPDX-License-Identifier: MIT
#include "ops/one_output.h"
#include "ops/batching/batch_rules.h"

#include "ops/dispatch.h"
#include "ops/shape_ops.h"

namespace gradstep {

namespace {
std::vector<std::int64_t> withBatch(std::int64_t batch, const std::vector<std::int64_t>& dims)
{
    std::vector<std::int64_t> out{batch};
    out.insert(out.end(), dims.begin(), dims.end());
    return out;
}

// The physical tensor of input i reshaped so that its element has `rank` axes (ones in front).
Tensor raisedTo(const BatchedCall& call, std::size_t i, int rank)
{
    const BatchedInput& in = call.input(i);
    const int own = in.logical.rank();
    if (own >= rank)
        return in.physical;
    std::vector<std::int64_t> shape{call.batchSize};
    shape.insert(shape.end(), static_cast<std::size_t>(rank - own), 1);
    for (std::int64_t d : in.logical.shape().toVector())
        shape.push_back(d);
    return reshape(in.physical, shape);
}

} // namespace

// Reshape, Flatten, ExpandDims, Squeeze only change the shape: the element's result shape comes
// from the op's own shape rule over the logical input (so its errors are the element's), and the
// physical tensor takes that shape behind the batch axis. Squeeze without axes must not see a
// batch of size 1 as a squeezable axis, which this also ensures.
OutputList batchReshapeLike(const BatchedCall& call)
{
    const Tensor logical[] = {call.input(0).logical};
    const OpCall element{call.op, logical, call.attrs};
    SpecList specs;
    call.op.infer(element, specs);
    return oneOutput(reshape(call.input(0).physical, withBatch(call.batchSize, specs[0].shape.toVector())));
}

OutputList batchBroadcastTo(const BatchedCall& call)
{
    const std::vector<std::int64_t> target = call.attrs.getInts("shape");
    Attrs attrs = call.attrs;
    attrs.set("shape", withBatch(call.batchSize, target));
    const Tensor physical[] = {raisedTo(call, 0, static_cast<int>(target.size()))};
    return callOp(call.op, physical, attrs);
}

OutputList batchTranspose(const BatchedCall& call)
{
    const int rank = logicalRank(call, 0);
    std::vector<std::int64_t> perm = call.attrs.getInts("perm", {});
    if (perm.empty())
        for (int a = rank - 1; a >= 0; --a)
            perm.push_back(a);
    if (static_cast<int>(perm.size()) != rank)
        return runPerElement(call); // the element's own error
    std::vector<std::int64_t> moved{0};
    for (std::int64_t p : perm)
        moved.push_back(physicalAxis(call, p, rank));
    Attrs attrs = call.attrs;
    attrs.set("perm", moved);
    return callOp(call.op, std::span<const Tensor>(&call.input(0).physical, 1), attrs);
}

// Concat joins along an axis of the elements, Stack along a new one; unbatched operands are
// broadcast along the batch first.
OutputList batchConcatLike(const BatchedCall& call)
{
    const int rank = logicalRank(call, 0) + (call.op.name == "Stack" ? 1 : 0);
    TensorList physical;
    for (std::size_t i = 0; i < call.inputs.size(); ++i)
        physical.push_back(batchedPhysical(call, i));
    Attrs attrs = call.attrs;
    attrs.set("axis", physicalAxis(call, call.attrs.getInt("axis", 0), rank));
    return callOp(call.op, physical, attrs);
}

OutputList batchSplit(const BatchedCall& call)
{
    Attrs attrs = call.attrs;
    attrs.set("axis", physicalAxis(call, call.attrs.getInt("axis", 0), logicalRank(call, 0)));
    return callOp(call.op, std::span<const Tensor>(&call.input(0).physical, 1), attrs);
}

OutputList batchStridedSlice(const BatchedCall& call)
{
    Attrs attrs = call.attrs;
    attrs.set("begin", withBatch(0, call.attrs.getInts("begin")));
    attrs.set("end", withBatch(call.batchSize, call.attrs.getInts("end")));
    attrs.set("strides", withBatch(1, call.attrs.getInts("strides")));
    return callOp(call.op, std::span<const Tensor>(&call.input(0).physical, 1), attrs);
}

// Batched params: the gathered axis moves past the batch. Batched indices of unbatched params:
// the batch axis lands where the indices go (at `axis`) and moves to the front. Both batched:
// per element.
OutputList batchGather(const BatchedCall& call)
{
    const BatchedInput& params = call.input(0);
    const BatchedInput& indices = call.input(1);
    const int rank = params.logical.rank();
    if (params.batched && indices.batched)
        return runPerElement(call);
    if (params.batched) {
        Attrs attrs = call.attrs;
        attrs.set("axis", physicalAxis(call, call.attrs.getInt("axis", 0), rank));
        const Tensor physical[] = {params.physical, indices.physical};
        return callOp(call.op, physical, attrs);
    }
    const std::int64_t axis = physicalAxis(call, call.attrs.getInt("axis", 0), rank) - 1;
    const Tensor physical[] = {params.physical, indices.physical};
    Tensor out = callOp1(call.op, physical, call.attrs);
    if (axis == 0)
        return oneOutput(std::move(out));
    std::vector<std::int64_t> perm{axis};
    for (std::int64_t a = 0; a < out.rank(); ++a)
        if (a != axis)
            perm.push_back(a);
    return oneOutput(transpose(out, perm));
}

OutputList batchTile(const BatchedCall& call)
{
    const std::vector<std::int64_t> multiples = call.attrs.getInts("multiples");
    if (static_cast<int>(multiples.size()) < logicalRank(call, 0))
        return runPerElement(call); // the element's own error
    Attrs attrs = call.attrs;
    attrs.set("multiples", withBatch(1, multiples));
    const Tensor physical[] = {raisedTo(call, 0, static_cast<int>(multiples.size()))};
    return callOp(call.op, physical, attrs);
}

// The one-hot axis is an axis of the result, whose element rank is the indices' plus one.
OutputList batchOneHot(const BatchedCall& call)
{
    const std::int64_t axis = call.attrs.getInt("axis", -1);
    Attrs attrs = call.attrs;
    if (axis != -1)
        attrs.set("axis", physicalAxis(call, axis, logicalRank(call, 0) + 1));
    return callOp(call.op, std::span<const Tensor>(&call.input(0).physical, 1), attrs);
}

} // namespace gradstep
