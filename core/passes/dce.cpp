// dce: removes nodes and constants that no graph output depends on. SPDX-License-Identifier: MIT
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace gradstep {

namespace {

struct DceCounts {
    std::int64_t nodes = 0;
    std::int64_t constants = 0;
};

Graph eliminate(const Graph& graph, DceCounts& counts);

// The node's subgraphs with their own dead code removed (If, While and fused bodies).
std::vector<std::shared_ptr<const Graph>> cleanSubgraphs(const GraphNode& node, DceCounts& counts)
{
    std::vector<std::shared_ptr<const Graph>> subgraphs;
    for (const auto& sub : node.subgraphs)
        subgraphs.push_back(std::make_shared<const Graph>(eliminate(*sub, counts)));
    return subgraphs;
}

std::vector<bool> liveValues(const Graph& graph)
{
    std::vector<bool> live(graph.values().size(), false);
    for (ValueId out : graph.outputs())
        live[out] = true;
    // Inputs stay: they are the graph's signature.
    for (ValueId in : graph.inputs())
        live[in] = true;
    const auto& nodes = graph.nodes();
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
        bool used = false;
        for (ValueId out : it->outputs)
            used = used || live[out];
        if (used)
            for (ValueId in : it->inputs)
                live[in] = true;
    }
    return live;
}

Graph eliminate(const Graph& graph, DceCounts& counts)
{
    const std::vector<bool> live = liveValues(graph);
    for (const GraphValue& v : graph.values())
        if (v.kind == ValueKind::Constant && !live[v.id])
            ++counts.constants;
    GraphRewriter rewriter(graph, &live);
    for (const GraphNode& node : graph.nodes()) {
        bool used = false;
        for (ValueId out : node.outputs)
            used = used || live[out];
        if (!used) {
            ++counts.nodes;
            continue;
        }
        if (node.subgraphs.empty()) {
            rewriter.copy(node);
        } else {
            const auto subgraphs = cleanSubgraphs(node, counts);
            rewriter.copy(node, &subgraphs);
        }
    }
    return rewriter.finish();
}

PassResult runDce(const Graph& graph)
{
    DceCounts counts;
    PassResult r{eliminate(graph, counts), false, "", {}};
    r.changed = counts.nodes > 0 || counts.constants > 0;
    r.summary = r.changed ? "removed " + countNoun(counts.nodes, "node") + " and "
                                + countNoun(counts.constants, "constant")
                          : "no dead code";
    r.stats = {{"removed_nodes", counts.nodes}, {"removed_constants", counts.constants}};
    return r;
}

} // namespace

const PassInfo kDcePass{
    "dce",
    "Dead-code elimination: removes nodes and constants no output depends on",
    "Walks the graph backwards from its outputs and keeps the nodes and constants they depend on; "
    "everything else is removed, inside If, While and fused bodies too. Graph inputs are kept even "
    "when unused (they are the signature). Every op is treated as pure: an unused random op such "
    "as Dropout is removed too. It does not merge duplicates (cse) or simplify expressions.",
    {},
    runDce,
    false}; // it walks into subgraphs itself (fused members too)

} // namespace gradstep
