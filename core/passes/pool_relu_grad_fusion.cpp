// pool_relu_grad_fusion: the backward of relu followed by a max pool, ReluGrad(MaxPoolGrad(y, dy),
// x) with y = ReLU(x) (or ReluGrad(..., y) itself), becomes one MaxPoolReluGrad(y, dy) node that
// writes the input gradient in one pass instead of writing MaxPoolGrad's result and reading it
// back. SPDX-License-Identifier: MIT
//
// Masking by y instead of x is exact: y = max(x, 0) is > 0 exactly where x > 0 (a NaN x gives a
// NaN y, and NaN > 0 is false for both), so ReluGrad(g, x) == ReluGrad(g, y) element for element
// (MindSpore's ReLU bprop masks by the output for the same reason).
#include "ops/elementwise/defs.h"
#include "ops/nn/defs.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace gradstep {

namespace {

// For a ReluGrad node: the MaxPoolGrad feeding it when the pair can become one node (the pool
// gradient has no other use, and the mask is the pooled value or the input of the ReLU making it).
const GraphNode* fusiblePool(const Graph& g, const GraphNode& reluGrad, const std::vector<int>& uses)
{
    if (!isOpNode(reluGrad, kReluGrad))
        return nullptr;
    const GraphNode* pool = producerOf(g, reluGrad.inputs[0], &kMaxPoolGrad);
    if (!pool || uses[reluGrad.inputs[0]] != 1)
        return nullptr;
    const ValueId y = pool->inputs[0], mask = reluGrad.inputs[1];
    if (mask == y)
        return pool;
    const GraphNode* relu = producerOf(g, y, &kReLU);
    return relu && relu->inputs[0] == mask && g.spec(mask).dtype == g.spec(y).dtype ? pool : nullptr;
}

PassResult runPoolReluGradFusion(const Graph& graph)
{
    std::vector<int> uses(graph.values().size(), 0);
    for (const GraphNode& node : graph.nodes())
        for (ValueId in : node.inputs)
            ++uses[in];
    for (ValueId out : graph.outputs())
        ++uses[out];
    std::vector<const GraphNode*> fusedPool(graph.nodes().size(), nullptr); // per ReluGrad node
    std::vector<bool> absorbed(graph.nodes().size(), false);                // per MaxPoolGrad node
    for (const GraphNode& node : graph.nodes())
        if (const GraphNode* pool = fusiblePool(graph, node, uses)) {
            fusedPool[node.id] = pool;
            absorbed[pool->id] = true;
        }
    GraphRewriter rewriter(graph);
    std::int64_t fused = 0;
    for (const GraphNode& node : graph.nodes()) {
        if (absorbed[node.id])
            continue;
        const GraphNode* pool = fusedPool[node.id];
        if (!pool) {
            rewriter.copy(node);
            continue;
        }
        const ValueId y = rewriter.map(pool->inputs[0]), dy = rewriter.map(pool->inputs[1]);
        rewriter.replace(node.outputs[0],
                         rewriter.graph().addNode1(kMaxPoolReluGrad, {y, dy}, pool->attrs, node.identity));
        ++fused;
    }
    PassResult r{rewriter.finish(), fused > 0, "", {{"fused_pairs", fused}}};
    r.summary = fused > 0 ? "fused " + countNoun(fused, "MaxPoolGrad-ReluGrad pair") : "nothing to fuse";
    return r;
}

} // namespace

const PassInfo kPoolReluGradFusionPass{
    "pool_relu_grad_fusion",
    "Fuses a max pool's gradient with the ReLU gradient that consumes it",
    "Replaces ReluGrad(MaxPoolGrad(y, dy), x), where y = ReLU(x) or x is y itself, by one "
    "MaxPoolReluGrad(y, dy) node that routes dy to each window's maximum and masks it by y > 0 "
    "in the same loop, so the pool gradient is never written out and read back. Bit-identical "
    "to the pair (y > 0 exactly where x > 0, NaN included). It leaves the pair alone when the "
    "pool gradient has another use (or is a graph output), or when the mask is some other value.",
    {},
    runPoolReluGradFusion};

} // namespace gradstep
