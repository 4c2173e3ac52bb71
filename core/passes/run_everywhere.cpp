// Running a pass inside subgraphs too: loop bodies, branches and custom bprops are graphs like
// any other, and a pass that keeps a graph's inputs and outputs keeps a subgraph's signature, so
// the node holding it stays valid. SPDX-License-Identifier: MIT
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace gradstep {

PassResult runPassEverywhere(const PassInfo& pass, const Graph& graph)
{
    const auto hasBodies = [](const GraphNode& node) {
        return !node.subgraphs.empty() && node.kind != NodeKind::Fused;
    };
    bool any = false;
    for (const GraphNode& node : graph.nodes())
        any = any || hasBodies(node);
    if (!pass.insideSubgraphs || !any)
        return pass.run(graph);

    GraphRewriter rewriter(graph);
    std::int64_t changedBodies = 0;
    for (const GraphNode& node : graph.nodes()) {
        if (!hasBodies(node)) {
            rewriter.copy(node);
            continue;
        }
        std::vector<std::shared_ptr<const Graph>> bodies;
        for (const auto& sub : node.subgraphs) {
            PassResult inner = runPassEverywhere(pass, *sub);
            changedBodies += inner.changed ? 1 : 0;
            bodies.push_back(inner.changed ? std::make_shared<const Graph>(std::move(inner.graph)) : sub);
        }
        rewriter.copy(node, &bodies);
    }
    PassResult r = pass.run(changedBodies > 0 ? rewriter.finish() : graph);
    if (changedBodies > 0) {
        r.changed = true;
        r.summary += "; changed " + countNoun(changedBodies, "subgraph");
        r.stats.emplace_back("changed_subgraphs", changedBodies);
    }
    return r;
}

} // namespace gradstep
