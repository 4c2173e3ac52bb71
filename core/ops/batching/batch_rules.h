// Batching rules of vmap (Note [Batching rules]): how each primitive op runs once over a whole
// batch instead of once per batch element. SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

#include <span>
#include <string_view>

namespace gradstep {

// Note [Batching rules]
// vmap traces its function once over "logical" tensors: each stands for one batch element and
// has that element's shape, while its values live in a "physical" tensor that carries the batch
// as its axis 0 (core/api/batch_tracer.h). An op reached by a logical input runs through its
// rule: the rule calls ordinary ops on the physical tensors (moving or folding the batch axis so
// that the op sees a batch where it expects one: a leading axis of an elementwise op, N of a
// convolution, the batch of BatchMatMul; an axis attribute shifted past the batch axis) and
// returns physical outputs with the batch at axis 0. Because rules call ordinary ops, the tape
// records them and autodiff differentiates through the batched computation, which is how
// grad(vmap(f)) and vmap(grad(f)) run batched. An op without a rule runs once per element on
// slices of its batched inputs (Gather of index b) and its outputs are stacked: the same values,
// without the speed.

/// Counts of how vmap ran on this thread (tests read them to tell a batched run from a loop).
struct BatchStats {
    std::uint64_t batchedOps = 0;    ///< op calls run through a batching rule
    std::uint64_t perElementOps = 0; ///< op calls without a rule, run per element
    std::uint64_t batchedGrads = 0;  ///< gradient calls differentiated over the whole batch
};
BatchStats& batchStats();

/// One input of a batched op call.
struct BatchedInput {
    Tensor logical;  ///< what the traced function holds: one element's shape (undefined: absent)
    Tensor physical; ///< the values: batch at axis 0 when `batched`, else the tensor itself
    bool batched = false;
};

/// The context a rule runs in: the inputs, the op's attributes and the batch size.
struct BatchedCall {
    const OpDef& op;
    std::span<const BatchedInput> inputs;
    const Attrs& attrs;
    std::int64_t batchSize;

    const BatchedInput& input(std::size_t i) const { return inputs[i]; }
};

using BatchRule = OutputList (*)(const BatchedCall& call);

/// The rule of an op, or nullptr when it has none (it then runs per element).
BatchRule findBatchRule(std::string_view opName);
/// The rule `op` runs with: its own, the broadcasting rule of elementwise ops, or nullptr.
BatchRule findBatchRule(const OpDef& op);
/// Runs `call` batched: its rule, or the per-element loop. Outputs carry the batch at axis 0.
OutputList runBatched(const BatchedCall& call);
/// The per-element loop for an op without a rule (batch_loop.cpp).
OutputList runPerElement(const BatchedCall& call);

/// The physical tensor of input i with the batch at axis 0 and broadcast to the batch when the
/// input is not batched (for rules whose op needs every operand batched).
Tensor batchedPhysical(const BatchedCall& call, std::size_t i);
/// Logical rank of input i.
int logicalRank(const BatchedCall& call, std::size_t i);
/// Axis `axis` of a tensor of logical rank `rank` normalised ([-rank, rank)) and moved past the
/// batch axis; ValueError naming the op for an axis out of range.
std::int64_t physicalAxis(const BatchedCall& call, std::int64_t axis, int rank);

// The families of rules, one file each.
OutputList batchElementwise(const BatchedCall& call);
OutputList batchUnary(const BatchedCall& call);
OutputList batchReduceAxes(const BatchedCall& call);
OutputList batchReduceAxis(const BatchedCall& call);
OutputList batchReshapeLike(const BatchedCall& call);
OutputList batchBroadcastTo(const BatchedCall& call);
OutputList batchTranspose(const BatchedCall& call);
OutputList batchConcatLike(const BatchedCall& call);
OutputList batchSplit(const BatchedCall& call);
OutputList batchStridedSlice(const BatchedCall& call);
OutputList batchGather(const BatchedCall& call);
OutputList batchTile(const BatchedCall& call);
OutputList batchOneHot(const BatchedCall& call);
OutputList batchMatMul(const BatchedCall& call);
OutputList batchBatchMatMul(const BatchedCall& call);
OutputList batchBiasAdd(const BatchedCall& call);
OutputList batchFoldIntoN(const BatchedCall& call);
OutputList batchAxisAttr(const BatchedCall& call);
OutputList batchPerSampleLoss(const BatchedCall& call);

} // namespace gradstep
