// pool_before_relu: MaxPool(ReLU(x)) becomes ReLU(MaxPool(x)), so the ReLU runs on the pooled
// tensor (a quarter of the elements for a 2x2 pool) and ReLU(x) is never written out, and the
// fused pool-and-ReLU gradient MaxPoolReluGrad(ReLU(x), dy) reads x itself. SPDX-License-Identifier: MIT
//
// Both rewrites are exact, bit for bit, for windows without padding (ReLU is x > 0 ? x : +0, NaN
// kept, as in ops/elementwise/relu.cpp):
// - forward: max and ReLU commute on a window. A positive maximum is the same element either way;
//   a window with no positive element gives +0 both ways (ReLU never returns -0); a NaN is the
//   maximum either way and ReLU keeps it, the same NaN.
// - gradient: MaxPoolReluGrad routes dy to the window's first maximum and keeps it where that
//   element is > 0. With a positive maximum the first maximum of x and of ReLU(x) is the same
//   element; otherwise the kept element is not > 0 under either input and the window gets 0; a NaN
//   wins in both (the same first NaN) and is masked out in both.
// Padded windows ('same' mode) are left alone.
#include "ops/elementwise/defs.h"
#include "ops/nn/defs.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace gradstep {

namespace {

bool unpadded(const GraphNode& pool) { return pool.attrs.getString("pad_mode", "valid") == "valid"; }

// The ReLU nodes whose output feeds only unpadded MaxPools and the routing input of
// MaxPoolReluGrads with the same attributes; marks the pools to move before them.
std::vector<bool> movableRelus(const Graph& g, std::vector<bool>& pools)
{
    const std::size_t values = g.values().size();
    std::vector<const GraphNode*> poolOf(values, nullptr); // ReLU output -> a MaxPool reading it
    std::vector<bool> blocked(values, false);
    for (ValueId out : g.outputs())
        blocked[out] = true;
    for (const GraphNode& node : g.nodes())
        for (std::size_t i = 0; i < node.inputs.size(); ++i) {
            const ValueId v = node.inputs[i];
            if (isOpNode(node, kMaxPool) && unpadded(node))
                poolOf[v] = poolOf[v] && !(poolOf[v]->attrs == node.attrs) ? nullptr : &node;
            else if (!(isOpNode(node, kMaxPoolReluGrad) && i == 0))
                blocked[v] = true;
        }
    std::vector<bool> relus(g.nodes().size(), false);
    for (const GraphNode& node : g.nodes()) {
        const ValueId out = isOpNode(node, kReLU) ? node.outputs[0] : kNoId;
        if (out == kNoId || blocked[out] || !poolOf[out])
            continue;
        bool sameAttrs = true;
        for (const GraphNode& user : g.nodes())
            if (isOpNode(user, kMaxPoolReluGrad) && user.inputs[0] == out)
                sameAttrs = sameAttrs && user.attrs == poolOf[out]->attrs;
        relus[node.id] = sameAttrs;
    }
    pools.assign(g.nodes().size(), false);
    for (const GraphNode& node : g.nodes())
        if (const GraphNode* relu = producerOf(g, node.inputs[0]);
            isOpNode(node, kMaxPool) && relu && relus[relu->id])
            pools[node.id] = true;
    return relus;
}

PassResult runPoolBeforeRelu(const Graph& graph)
{
    std::vector<bool> pools;
    const std::vector<bool> relus = movableRelus(graph, pools);
    GraphRewriter rewriter(graph);
    std::int64_t moved = 0;
    for (const GraphNode& node : graph.nodes()) {
        if (relus[node.id]) {
            // Every use reads the ReLU's input instead (each rewritten below).
            rewriter.replace(node.outputs[0], rewriter.map(node.inputs[0]));
            ++moved;
        } else if (pools[node.id]) {
            const ValueId pooled = rewriter.graph().addNode1(kMaxPool, {rewriter.map(node.inputs[0])}, node.attrs,
                                                             node.identity);
            const NodeIdentity& reluIdentity = producerOf(graph, node.inputs[0])->identity;
            rewriter.replace(node.outputs[0], rewriter.graph().addNode1(kReLU, {pooled}, {}, reluIdentity));
        } else {
            rewriter.copy(node);
        }
    }
    PassResult r{rewriter.finish(), moved > 0, "", {{"moved_relus", moved}}};
    r.summary = moved > 0 ? "moved " + countNoun(moved, "ReLU") + " after its max pool" : "no ReLU feeds only max pools";
    return r;
}

} // namespace

const PassInfo kPoolBeforeReluPass{
    "pool_before_relu",
    "Max-pools before the ReLU instead of after it",
    "Rewrites MaxPool(ReLU(x)) as ReLU(MaxPool(x)) and MaxPoolReluGrad(ReLU(x), dy) as "
    "MaxPoolReluGrad(x, dy), so the ReLU runs on the pooled tensor and ReLU(x) is not kept: "
    "bit-identical for windows without padding. It does not move a ReLU whose output has any other "
    "use (a graph output, another op, pools with other attributes) or feeds a padded pool.",
    {"pool_relu_grad_fusion"},
    runPoolBeforeRelu};

} // namespace gradstep
