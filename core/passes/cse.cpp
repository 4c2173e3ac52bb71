// cse: merges nodes that apply the same op with the same attributes to the same values, and
// constants with the same type and bytes. SPDX-License-Identifier: MIT
#include "graph/text_format.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

#include <cstring>
#include <map>

namespace gradstep {

namespace {

bool sameConstant(const Tensor& a, const Tensor& b)
{
    return a.dtype() == b.dtype() && a.shape() == b.shape()
           && std::memcmp(a.rawData(), b.rawData(), a.nbytes()) == 0;
}

// The first constant equal to each constant (itself when it is the first).
std::vector<ValueId> constantLeaders(const Graph& graph)
{
    std::vector<ValueId> leader(graph.values().size(), kNoId);
    std::vector<ValueId> firsts;
    for (const GraphValue& v : graph.values()) {
        if (v.kind != ValueKind::Constant)
            continue;
        leader[v.id] = v.id;
        for (ValueId f : firsts)
            if (sameConstant(graph.value(f).constant, v.constant)) {
                leader[v.id] = f;
                break;
            }
        if (leader[v.id] == v.id)
            firsts.push_back(v.id);
    }
    return leader;
}

std::string nodeKey(const GraphNode& node, const GraphRewriter& rewriter)
{
    std::string key(node.name());
    for (ValueId in : node.inputs)
        key += " " + std::to_string(rewriter.map(in));
    for (const auto& [name, value] : node.attrs.items())
        key += " " + name + "=" + attrValueToString(value, AttrText::Exact);
    return key;
}

PassResult runCse(const Graph& graph)
{
    const std::vector<ValueId> leader = constantLeaders(graph);
    std::vector<bool> keep(graph.values().size(), false);
    std::int64_t constants = 0, nodes = 0;
    for (const GraphValue& v : graph.values())
        if (v.kind == ValueKind::Constant) {
            keep[v.id] = leader[v.id] == v.id;
            constants += !keep[v.id];
        }
    GraphRewriter rewriter(graph, &keep);
    for (const GraphValue& v : graph.values())
        if (v.kind == ValueKind::Constant && !keep[v.id])
            rewriter.replace(v.id, rewriter.map(leader[v.id]));
    // Keyed by a string of op, mapped input ids and attributes: ordered, so deterministic.
    std::map<std::string, std::vector<ValueId>> seen;
    for (const GraphNode& node : graph.nodes()) {
        const bool mergeable = node.kind == NodeKind::Op && !hasSideEffects(*node.op);
        const std::string key = mergeable ? nodeKey(node, rewriter) : std::string();
        auto found = mergeable ? seen.find(key) : seen.end();
        if (found == seen.end()) {
            std::vector<ValueId> outs = rewriter.copy(node);
            if (mergeable)
                seen.emplace(key, std::move(outs));
            continue;
        }
        for (std::size_t i = 0; i < node.outputs.size(); ++i)
            rewriter.replace(node.outputs[i], found->second[i]);
        ++nodes;
    }
    PassResult r{rewriter.finish(), nodes > 0 || constants > 0, "", {}};
    r.summary = r.changed ? "merged " + countNoun(nodes, "node") + " and "
                                + countNoun(constants, "constant")
                          : "no common subexpressions";
    r.stats = {{"merged_nodes", nodes}, {"merged_constants", constants}};
    return r;
}

} // namespace

const PassInfo kCsePass{
    "cse",
    "Common-subexpression elimination: one node per distinct computation",
    "Merges nodes that apply the same op, with equal attributes, to the same input values (the "
    "first one stays, with its scope and location), and constants of equal type and bytes. One "
    "walk "
    "in topological order also merges whole chains: once inputs are merged, their users compare "
    "equal. "
    "It does not merge If, While or fused nodes, ops that draw random numbers (Dropout), or "
    "computations that are equal only up to algebra (a + b and b + a stay apart), and it does not "
    "merge across a subgraph's boundary (a pipeline runs it inside each body separately).",
    {},
    runCse};

} // namespace gradstep
