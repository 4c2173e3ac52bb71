// Batching rules of the nn ops: matrix products take the batch as rows or as BatchMatMul's batch,
// convolutions, pooling and per-sample losses fold it into their sample axis N, softmax shifts
// its axis. SPDX-License-Identifier: MIT
#include "ops/batching/batch_rules.h"

#include "ops/dispatch.h"
#include "ops/registry.h"
#include "ops/shape_ops.h"

namespace gradstep {

namespace {
// Physical tensor (batch first, broadcast if unbatched) with the batch folded into axis 0 of
// the element: (B, N, ...) -> (B * N, ...).
Tensor folded(const BatchedCall& call, std::size_t i)
{
    const Tensor physical = batchedPhysical(call, i);
    std::vector<std::int64_t> shape = call.input(i).logical.shape().toVector();
    shape[0] *= call.batchSize;
    return reshape(physical, shape);
}

// (B * N, ...) -> (B, N, ...).
Tensor unfolded(const Tensor& t, std::int64_t batch)
{
    std::vector<std::int64_t> shape = t.shape().toVector();
    shape[0] /= batch;
    shape.insert(shape.begin(), batch);
    return reshape(t, shape);
}

OutputList unfoldedAll(const OutputList& outs, std::int64_t batch)
{
    OutputList result;
    for (const Tensor& t : outs)
        result.push_back(unfolded(t, batch));
    return result;
}

OutputList single(Tensor t)
{
    OutputList out;
    out.push_back(std::move(t));
    return out;
}

bool onlyFirstBatched(const BatchedCall& call)
{
    for (std::size_t i = 1; i < call.inputs.size(); ++i)
        if (call.input(i).batched)
            return false;
    return call.input(0).batched;
}
} // namespace

// An element's MatMul is 2-D. A batch of left operands against one right operand is one MatMul
// over the stacked rows; any other mix is a BatchMatMul with the same transposes.
OutputList batchMatMul(const BatchedCall& call)
{
    if (logicalRank(call, 0) != 2 || logicalRank(call, 1) != 2)
        return runPerElement(call);
    if (onlyFirstBatched(call) && !call.attrs.getBool("transpose_a", false)) {
        const Tensor physical[] = {folded(call, 0), call.input(1).physical};
        return unfoldedAll(callOp(call.op, physical, call.attrs), call.batchSize);
    }
    const Tensor physical[] = {call.input(0).physical, call.input(1).physical};
    return callOp(OpRegistry::instance().get("BatchMatMul"), physical, call.attrs);
}

// BatchMatMul broadcasts its batch axes from the right, so a batched operand only needs axes of
// size 1 up to the other operand's rank; an unbatched one broadcasts along the vmap batch.
OutputList batchBatchMatMul(const BatchedCall& call)
{
    const int rank = std::max(logicalRank(call, 0), logicalRank(call, 1));
    if (rank < 2)
        return runPerElement(call);
    TensorList physical;
    for (std::size_t i = 0; i < 2; ++i) {
        const BatchedInput& in = call.input(i);
        if (!in.batched || in.logical.rank() == rank) {
            physical.push_back(in.physical);
            continue;
        }
        std::vector<std::int64_t> shape{call.batchSize};
        shape.insert(shape.end(), static_cast<std::size_t>(rank - in.logical.rank()), 1);
        for (std::int64_t d : in.logical.shape().toVector())
            shape.push_back(d);
        physical.push_back(reshape(in.physical, shape));
    }
    return callOp(call.op, physical, call.attrs);
}

// Bias along axis 1 of x (N, C, ...): a batched x folds into N; a batched bias (B, C) is added
// as (B, 1, C, 1, ...), which is what BiasAdd computes element by element.
OutputList batchBiasAdd(const BatchedCall& call)
{
    const int rank = logicalRank(call, 0);
    if (rank < 2 || logicalRank(call, 1) != 1)
        return runPerElement(call);
    if (onlyFirstBatched(call)) {
        const Tensor physical[] = {folded(call, 0), call.input(1).physical};
        return unfoldedAll(callOp(call.op, physical, call.attrs), call.batchSize);
    }
    std::vector<std::int64_t> shape{call.batchSize, 1, call.input(1).logical.shape()[0]};
    shape.insert(shape.end(), static_cast<std::size_t>(rank - 2), 1);
    const Tensor physical[] = {batchedPhysical(call, 0), reshape(call.input(1).physical, shape)};
    return callOp(OpRegistry::instance().get("Add"), physical);
}

namespace {
// Conv2D with a batched filter (per-example weights, as vmap of grad makes them): the batch
// becomes groups of one convolution. x (B, N, C, H, W) runs as (N, B * C, H, W) against the
// filters (B * O, C / group, kH, kW) with B times the groups, so group b of the result sees only
// element b's channels and filters; (N, B * O, H', W') is then (B, N, O, H', W').
OutputList batchGroupedConv(const BatchedCall& call)
{
    const Shape& x = call.input(0).logical.shape();
    const Shape& w = call.input(1).logical.shape();
    const std::int64_t b = call.batchSize;
    const Tensor input = reshape(transpose(batchedPhysical(call, 0), {1, 0, 2, 3, 4}), {x[0], b * x[1], x[2], x[3]});
    const Tensor filters = reshape(call.input(1).physical, {b * w[0], w[1], w[2], w[3]});
    Attrs attrs = call.attrs;
    attrs.set("group", call.attrs.getInt("group", 1) * b);
    const Tensor physical[] = {input, filters};
    const Tensor out = callOp1(call.op, physical, attrs);
    const Shape& o = out.shape();
    return single(transpose(reshape(out, {o[0], b, w[0], o[2], o[3]}), {1, 0, 2, 3, 4}));
}
} // namespace

// Conv2D, MaxPool, AvgPool over NCHW elements: (B, N, C, H, W) runs as (B * N, C, H, W). A
// batched filter takes the grouped form above.
OutputList batchFoldIntoN(const BatchedCall& call)
{
    if (logicalRank(call, 0) != 4)
        return runPerElement(call);
    if (call.op.name == "Conv2D" && call.input(1).batched && logicalRank(call, 1) == 4)
        return batchGroupedConv(call);
    if (!onlyFirstBatched(call))
        return runPerElement(call);
    TensorList physical{folded(call, 0)};
    for (std::size_t i = 1; i < call.inputs.size(); ++i)
        physical.push_back(call.input(i).physical);
    return unfoldedAll(callOp(call.op, physical, call.attrs), call.batchSize);
}

// Softmax, LogSoftmax: the normalised axis moves past the batch axis.
OutputList batchAxisAttr(const BatchedCall& call)
{
    Attrs attrs = call.attrs;
    attrs.set("axis", physicalAxis(call, call.attrs.getInt("axis", -1), logicalRank(call, 0)));
    return callOp(call.op, std::span<const Tensor>(&call.input(0).physical, 1), attrs);
}

// Per-sample losses of logits (N, C) against labels (N,) or (N, C): every operand folds its
// batch into N (an unbatched one broadcast first), the losses (B * N,) unfold to (B, N).
OutputList batchPerSampleLoss(const BatchedCall& call)
{
    for (std::size_t i = 0; i < call.inputs.size(); ++i)
        if (logicalRank(call, i) < 1)
            return runPerElement(call);
    TensorList physical;
    for (std::size_t i = 0; i < call.inputs.size(); ++i)
        physical.push_back(folded(call, i));
    return unfoldedAll(callOp(call.op, physical, call.attrs), call.batchSize);
}

} // namespace gradstep
