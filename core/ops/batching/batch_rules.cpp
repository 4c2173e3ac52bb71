// The table of batching rules and the helpers every rule shares (Note [Batching rules]).
// SPDX-License-Identifier: MIT
#include "ops/batching/batch_rules.h"

#include "ops/shape_ops.h"

#include <array>
#include <utility>

namespace gradstep {

namespace {
struct RuleEntry {
    std::string_view op;
    BatchRule rule;
};

// Elementwise ops (OpKind::Elementwise) take the broadcasting rule without being listed here.
constexpr std::array kRules{
    RuleEntry{"ZerosLike", batchUnary},
    RuleEntry{"OnesLike", batchUnary},
    RuleEntry{"StopGradient", batchUnary},
    RuleEntry{"Identity", batchUnary},
    RuleEntry{"Dropout", batchUnary},
    RuleEntry{"ReduceSum", batchReduceAxes},
    RuleEntry{"ReduceMean", batchReduceAxes},
    RuleEntry{"ReduceMax", batchReduceAxes},
    RuleEntry{"ReduceMin", batchReduceAxes},
    RuleEntry{"Norm", batchReduceAxes},
    RuleEntry{"Argmax", batchReduceAxis},
    RuleEntry{"Argmin", batchReduceAxis},
    RuleEntry{"Reshape", batchReshapeLike},
    RuleEntry{"Flatten", batchReshapeLike},
    RuleEntry{"ExpandDims", batchReshapeLike},
    RuleEntry{"Squeeze", batchReshapeLike},
    RuleEntry{"BroadcastTo", batchBroadcastTo},
    RuleEntry{"Transpose", batchTranspose},
    RuleEntry{"Concat", batchConcatLike},
    RuleEntry{"Stack", batchConcatLike},
    RuleEntry{"Split", batchSplit},
    RuleEntry{"StridedSlice", batchStridedSlice},
    RuleEntry{"Gather", batchGather},
    RuleEntry{"Tile", batchTile},
    RuleEntry{"OneHot", batchOneHot},
    RuleEntry{"MatMul", batchMatMul},
    RuleEntry{"BatchMatMul", batchBatchMatMul},
    RuleEntry{"BiasAdd", batchBiasAdd},
    RuleEntry{"Conv2D", batchFoldIntoN},
    RuleEntry{"MaxPool", batchFoldIntoN},
    RuleEntry{"AvgPool", batchFoldIntoN},
    RuleEntry{"Softmax", batchAxisAttr},
    RuleEntry{"LogSoftmax", batchAxisAttr},
    RuleEntry{"SparseSoftmaxCrossEntropyWithLogits", batchPerSampleLoss},
    RuleEntry{"SoftmaxCrossEntropyWithLogits", batchPerSampleLoss},
};
} // namespace

BatchStats& batchStats()
{
    thread_local BatchStats stats;
    return stats;
}

BatchRule findBatchRule(std::string_view opName)
{
    for (const RuleEntry& e : kRules)
        if (e.op == opName)
            return e.rule;
    return nullptr;
}

BatchRule findBatchRule(const OpDef& op)
{
    if (BatchRule rule = findBatchRule(op.name))
        return rule;
    return op.kind == OpKind::Elementwise ? batchElementwise : nullptr;
}

OutputList runBatched(const BatchedCall& call)
{
    if (BatchRule rule = findBatchRule(call.op))
        return rule(call);
    return runPerElement(call);
}

int logicalRank(const BatchedCall& call, std::size_t i) { return call.input(i).logical.rank(); }

Tensor batchedPhysical(const BatchedCall& call, std::size_t i)
{
    const BatchedInput& in = call.input(i);
    if (in.batched)
        return in.physical;
    std::vector<std::int64_t> shape{call.batchSize};
    for (std::int64_t d : in.physical.shape().toVector())
        shape.push_back(d);
    return broadcastTo(in.physical, shape);
}

std::int64_t physicalAxis(const BatchedCall& call, std::int64_t axis, int rank)
{
    return normalizeAxis(axis, rank, call.op.name) + 1;
}

} // namespace gradstep
