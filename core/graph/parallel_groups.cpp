// Node groups for inter-op parallelism (see parallel_groups.h). SPDX-License-Identifier: MIT
#include "graph/parallel_groups.h"

#include <algorithm>

namespace gradstep {

std::int64_t nodeWork(const Graph& graph, const GraphNode& node)
{
    std::int64_t elements = 0;
    for (ValueId v : node.inputs)
        elements += graph.spec(v).shape.numel();
    for (ValueId v : node.outputs)
        elements += graph.spec(v).shape.numel();
    return elements;
}

bool groupable(const GraphNode& node)
{
    return (node.kind == NodeKind::Op && !node.op->writesInputs) || node.kind == NodeKind::Fused;
}

std::vector<NodeGroup> nodeGroups(const Graph& graph)
{
    const auto& nodes = graph.nodes();
    std::vector<NodeGroup> groups;
    std::vector<std::int64_t> work;
    auto close = [&](NodeId end) {
        NodeGroup& g = groups.back();
        g.end = end;
        std::sort(work.begin(), work.end(), std::greater<>());
        g.parallel = work.size() >= 2 && work[1] >= kMinParallelElements;
        work.clear();
    };
    for (const GraphNode& node : nodes) {
        bool joins = !groups.empty() && groupable(node) && groupable(nodes[groups.back().begin]);
        if (joins)
            for (ValueId in : node.inputs) {
                const GraphValue& v = graph.value(in);
                if (v.kind == ValueKind::NodeOutput && v.node >= groups.back().begin) {
                    joins = false;
                    break;
                }
            }
        if (!joins) {
            if (!groups.empty())
                close(node.id);
            groups.push_back({node.id, node.id, false});
        }
        work.push_back(nodeWork(graph, node));
    }
    if (!groups.empty())
        close(static_cast<NodeId>(nodes.size()));
    return groups;
}

std::vector<std::uint32_t> planSteps(const Graph& graph)
{
    std::vector<std::uint32_t> steps(graph.nodes().size());
    std::uint32_t step = 0;
    for (const NodeGroup& g : nodeGroups(graph)) {
        for (NodeId id = g.begin; id < g.end; ++id)
            steps[id] = g.parallel ? step : step++;
        if (g.parallel)
            ++step;
    }
    return steps;
}

} // namespace gradstep
