// Graph mode in the Session: the compiled graphs of the run (graphCompiled), naming the executed
// graph nodes in records (GraphNodeRef), and the Executed / Current / Pending marks of a state.
//
// The executor's NodeEvent::graphNode points into the graph the compile event showed (the compile
// cache owns it for the run), so a top-level node is found by address. Nodes of an If branch, a
// While body or a fused node's members run on sub-executors holding their own copies of those
// subgraphs: they name the top-level node running them, marked `inside`. SPDX-License-Identifier:
// MIT
#include "session/session_impl.h"

#include <algorithm>
#include <functional>

namespace gradstep::debug {

namespace {

bool within(const GraphNode* p, const GraphNode* first, std::size_t count)
{
    const std::less<const GraphNode*> less;
    return !less(p, first) && less(p, first + count);
}

/// Marks of one graph as the records go: a node at or before the last one touched starts a new
/// run of the graph (nodes run in id order), which forgets the marks of the previous run.
struct Marking {
    ExecutedGraph graph;
    std::int64_t last = -1;
    bool lastFinished = false;

    void apply(const GraphNodeRef& ref)
    {
        const auto n = static_cast<std::int64_t>(ref.node);
        if (n < last || (n == last && lastFinished))
            std::fill(graph.marks.begin(), graph.marks.end(), GraphNodeMark::Pending);
        graph.marks[ref.node] = ref.inside ? GraphNodeMark::Current : GraphNodeMark::Executed;
        last = n;
        lastFinished = !ref.inside;
    }
};

} // namespace

std::vector<ExecutedGraph>
executedGraphs(const std::vector<RecordPtr>& records,
               const std::vector<std::shared_ptr<const CompiledGraph>>& compiled,
               bool nodeIsCurrent)
{
    std::vector<Marking> marking;
    auto find = [&](std::uint64_t id) -> Marking* {
        for (Marking& m : marking)
            if (m.graph.compiled->id == id)
                return &m;
        if (id == 0 || id > compiled.size() || !compiled[id - 1] || !compiled[id - 1]->graph)
            return nullptr;
        Marking m;
        m.graph.compiled = compiled[id - 1];
        m.graph.marks.assign(m.graph.compiled->graph->nodes().size(), GraphNodeMark::Pending);
        marking.push_back(std::move(m));
        return &marking.back();
    };
    for (const RecordPtr& r : records) {
        if (!r || !r->graphNode)
            continue;
        Marking* m = find(r->graphNode->graph);
        if (m && r->graphNode->node < m->graph.marks.size())
            m->apply(*r->graphNode);
    }
    if (nodeIsCurrent && !records.empty() && records.back() && records.back()->graphNode) {
        const GraphNodeRef& ref = *records.back()->graphNode;
        if (Marking* m = find(ref.graph); m && ref.node < m->graph.marks.size())
            m->graph.marks[ref.node] = GraphNodeMark::Current;
    }
    std::vector<ExecutedGraph> graphs;
    graphs.reserve(marking.size());
    for (Marking& m : marking)
        graphs.push_back(std::move(m.graph));
    return graphs;
}

void SessionObserver::graphCompiled(const GraphCompileEvent& event)
{
    if (!event.graph || m_impl.cancelling)
        return;
    m_impl.beginStepIfNeeded();
    WorkerState& w = m_impl.w;
    auto c = std::make_shared<CompiledGraph>();
    c->id = w.compiled.size() + 1;
    c->function = event.function ? *event.function : std::string();
    c->signature = event.signature ? *event.signature : std::string();
    c->compiles = event.compiles;
    c->gradient = event.gradient;
    c->milliseconds = event.milliseconds;
    c->step = w.step;
    c->graph = std::make_shared<const Graph>(*event.graph);
    w.compiled.push_back(std::move(c));

    const std::vector<GraphNode>& nodes = event.graph->nodes();
    const GraphNode* first = nodes.data();
    // A graph freed by a cleared cache may have left its addresses to this one.
    std::erase_if(w.graphNodes, [&](const WorkerState::GraphNodes& g) {
        return (g.count && within(g.first, first, nodes.size()))
               || (nodes.size() && within(first, g.first, g.count));
    });
    w.graphNodes.push_back({first, nodes.size(), w.compiled.size()});
}

std::optional<GraphNodeRef> Session::Impl::resolveGraphNode(const GraphNode& node) const
{
    for (auto g = w.graphNodes.rbegin(); g != w.graphNodes.rend(); ++g)
        if (within(&node, g->first, g->count))
            return GraphNodeRef{g->id, node.id, false};
    if (w.runningGraphNodes.empty())
        return std::nullopt;
    GraphNodeRef ref = w.runningGraphNodes.back();
    ref.inside = true;
    return ref;
}

void Session::Impl::graphNodeStarted(const NodeEvent& event)
{
    if (!event.graphNode)
        return;
    if (std::optional<GraphNodeRef> ref = resolveGraphNode(*event.graphNode); ref && !ref->inside)
        w.runningGraphNodes.push_back(*ref);
}

void Session::Impl::graphNodeFinished(const NodeEvent& event)
{
    if (!event.graphNode)
        return;
    std::optional<GraphNodeRef> ref = resolveGraphNode(*event.graphNode);
    if (!ref || ref->inside)
        return;
    // Entries above it belong to nodes that threw without a finish event.
    auto it = std::find(w.runningGraphNodes.begin(), w.runningGraphNodes.end(), *ref);
    w.runningGraphNodes.erase(it, w.runningGraphNodes.end());
}

} // namespace gradstep::debug
