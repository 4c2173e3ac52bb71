// DisplayGraph from a compiled IR graph (graph mode): the same picture as PyNative's records, so
// a view cannot tell the modes apart except by the nodes' contents. SPDX-License-Identifier: MIT
#include "display/display_graph.h"

#include "graph/graph.h"

#include <map>
#include <unordered_map>

namespace gradstep::display {

namespace {

int clusterFor(DisplayGraph& g, std::unordered_map<std::string, int>& index, const std::string& path,
               Phase phase)
{
    if (path.empty())
        return -1;
    if (auto it = index.find(path); it != index.end())
        return it->second;
    const std::size_t slash = path.rfind('/');
    const int parent = slash == std::string::npos ? -1 : clusterFor(g, index, path.substr(0, slash), phase);
    DisplayCluster c;
    c.path = path;
    c.title = slash == std::string::npos ? path : path.substr(slash + 1);
    c.parent = parent;
    c.depth = parent < 0 ? rootDepth(path, phase) : g.clusters[static_cast<std::size_t>(parent)].depth + 1;
    c.phase = phase;
    g.clusters.push_back(std::move(c));
    index.emplace(path, static_cast<int>(g.clusters.size() - 1));
    return static_cast<int>(g.clusters.size() - 1);
}

/// Graph autodiff already names backward scopes "Gradients/<forward scope>".
std::string scopeOf(const NodeIdentity& identity)
{
    const std::string& s = identity.scope;
    if (identity.phase != Phase::Backward || s == "Gradients" || s.rfind("Gradients/", 0) == 0)
        return s;
    return s.empty() ? "Gradients" : "Gradients/" + s;
}

} // namespace

DisplayGraph buildFromIr(const Graph& graph)
{
    DisplayGraph g;
    std::unordered_map<std::string, int> clusters;
    std::unordered_map<ValueId, std::size_t> producer;
    std::unordered_map<NodeId, std::size_t> nodeOf;
    std::map<std::string, std::size_t> occurrences;
    for (ValueId input : graph.inputs()) {
        const GraphValue& v = graph.value(input);
        DisplayNode n;
        const bool parameter = v.kind == ValueKind::Parameter;
        n.kind = parameter ? NodeKind::Parameter : NodeKind::Input;
        n.key = std::string(parameter ? "P:F:" : "I:F:") + (parameter ? v.name : std::to_string(v.index));
        n.title = v.name.empty() ? std::string("input") : v.name;
        n.detail = shapeAndDType(v.spec.shape, v.spec.dtype);
        n.halfPrecision = v.spec.dtype == DType::Float16 || v.spec.dtype == DType::BFloat16;
        g.nodes.push_back(std::move(n));
        producer.emplace(input, g.nodes.size() - 1);
    }
    for (const GraphNode& node : graph.nodes()) {
        DisplayNode n;
        n.phase = node.identity.phase;
        n.key = std::string(1, phaseLetter(n.phase)) + ":"
                + (n.phase == Phase::Backward ? "Gradients/" : "") + node.label();
        n.key += "#" + std::to_string(occurrences[n.key]++);
        n.title = std::string(node.name());
        if (!node.outputs.empty()) {
            const auto& spec = graph.spec(node.outputs.front());
            n.detail = shapeAndDType(spec.shape, spec.dtype);
            n.halfPrecision = spec.dtype == DType::Float16 || spec.dtype == DType::BFloat16;
        }
        n.scope = scopeOf(node.identity);
        n.cluster = clusterFor(g, clusters, n.scope, n.phase);
        n.records.push_back(node.id);
        g.nodes.push_back(std::move(n));
        const std::size_t index = g.nodes.size() - 1;
        nodeOf.emplace(node.id, index);
        for (ValueId in : node.inputs) {
            auto it = producer.find(in);
            if (it != producer.end())
                g.edges.push_back(DisplayEdge{it->second, index, EdgeKind::Data, specToString(graph.spec(in)), 1});
        }
        for (ValueId out : node.outputs)
            producer[out] = index;
        if (node.identity.phase == Phase::Backward && node.identity.origin != kNoId) {
            auto origin = nodeOf.find(node.identity.origin);
            if (origin != nodeOf.end() && g.nodes[origin->second].phase == Phase::Forward)
                g.edges.push_back(DisplayEdge{index, origin->second, EdgeKind::CrossLink, {}, 1});
        }
    }
    for (DisplayNode& n : g.nodes)
        estimateSize(n);
    return g;
}

} // namespace gradstep::display
