// Folding Cells into single nodes, the queries of DisplayGraph, sizes and colours.
// SPDX-License-Identifier: MIT
#include "display/display_graph.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace gradstep::display {

bool CollapseState::isCollapsed(const DisplayCluster& cluster) const
{
    if (expanded.count(cluster.path))
        return false;
    if (collapsed.count(cluster.path))
        return true;
    return depth >= 0 && cluster.depth >= depth;
}

namespace {

class Collapser {
public:
    Collapser(const DisplayGraph& full, const CollapseState& state) : m_full(full)
    {
        // Parents come before children, so the outermost folded ancestor is known in one pass.
        m_fold.assign(full.clusters.size(), -1);
        m_keep.assign(full.clusters.size(), -1);
        for (std::size_t c = 0; c < full.clusters.size(); ++c) {
            const DisplayCluster& cluster = full.clusters[c];
            const int parentFold = cluster.parent < 0 ? -1 : m_fold[static_cast<std::size_t>(cluster.parent)];
            if (parentFold >= 0)
                m_fold[c] = parentFold;
            else if (state.isCollapsed(cluster))
                m_fold[c] = static_cast<int>(c);
            else
                keepCluster(c);
        }
    }

    DisplayGraph run()
    {
        std::vector<std::size_t> mapped(m_full.nodes.size());
        for (std::size_t n = 0; n < m_full.nodes.size(); ++n)
            mapped[n] = mapNode(n);
        std::map<std::tuple<std::size_t, std::size_t, EdgeKind>, std::size_t> merged;
        for (const DisplayEdge& e : m_full.edges) {
            const std::size_t from = mapped[e.from], to = mapped[e.to];
            if (from == to)
                continue;
            auto [it, fresh] = merged.emplace(std::make_tuple(from, to, e.kind), m_out.edges.size());
            if (fresh)
                m_out.edges.push_back(DisplayEdge{from, to, e.kind, e.label, e.count});
            else
                m_out.edges[it->second].count += e.count;
        }
        for (DisplayNode& n : m_out.nodes) {
            if (n.kind != NodeKind::Cell)
                continue;
            std::sort(n.records.begin(), n.records.end());
            n.detail = std::to_string(n.members.size()) + (n.members.size() == 1 ? " op" : " ops");
            estimateSize(n);
        }
        return std::move(m_out);
    }

private:
    void keepCluster(std::size_t c)
    {
        DisplayCluster copy = m_full.clusters[c];
        if (copy.parent >= 0)
            copy.parent = m_keep[static_cast<std::size_t>(copy.parent)];
        m_keep[c] = static_cast<int>(m_out.clusters.size());
        m_out.clusters.push_back(std::move(copy));
    }

    std::size_t mapNode(std::size_t n)
    {
        const DisplayNode& node = m_full.nodes[n];
        const int fold = node.cluster < 0 ? -1 : m_fold[static_cast<std::size_t>(node.cluster)];
        if (fold < 0) {
            DisplayNode copy = node;
            if (copy.cluster >= 0)
                copy.cluster = m_keep[static_cast<std::size_t>(copy.cluster)];
            m_out.nodes.push_back(std::move(copy));
            return m_out.nodes.size() - 1;
        }
        auto [it, fresh] = m_cellNode.emplace(fold, m_out.nodes.size());
        if (fresh)
            m_out.nodes.push_back(cellNode(static_cast<std::size_t>(fold), node.phase));
        DisplayNode& cell = m_out.nodes[it->second];
        cell.records.insert(cell.records.end(), node.records.begin(), node.records.end());
        if (node.kind == NodeKind::Op)
            cell.members.push_back(node.key);
        cell.members.insert(cell.members.end(), node.members.begin(), node.members.end());
        cell.halfPrecision = cell.halfPrecision || node.halfPrecision;
        if (node.state == NodeState::Current || cell.state == NodeState::Current)
            cell.state = NodeState::Current;
        else if (node.state == NodeState::Pending && node.kind != NodeKind::Parameter)
            cell.state = NodeState::Pending;
        return it->second;
    }

    DisplayNode cellNode(std::size_t c, Phase phase) const
    {
        const DisplayCluster& cluster = m_full.clusters[c];
        DisplayNode cell;
        cell.kind = NodeKind::Cell;
        cell.phase = cluster.phase == phase ? phase : cluster.phase;
        cell.key = std::string("C:") + phaseLetter(cell.phase) + ":" + cluster.path;
        cell.title = cluster.title;
        cell.scope = cluster.parent < 0 ? std::string() : m_full.clusters[static_cast<std::size_t>(cluster.parent)].path;
        cell.cluster = cluster.parent < 0 ? -1 : m_keep[static_cast<std::size_t>(cluster.parent)];
        cell.state = NodeState::Executed;
        return cell;
    }

    const DisplayGraph& m_full;
    DisplayGraph m_out;
    std::vector<int> m_fold; ///< the cluster a cluster folds into, -1 when it stays a cluster
    std::vector<int> m_keep; ///< index of a kept cluster in the output
    std::map<int, std::size_t> m_cellNode;
};

} // namespace

DisplayGraph collapse(const DisplayGraph& full, const CollapseState& state)
{
    return Collapser(full, state).run();
}

int autoCollapseDepth(const DisplayGraph& full, std::size_t budget)
{
    if (full.nodes.size() <= budget)
        return -1;
    for (int depth = full.scopeDepth() - 1; depth > 0; --depth)
        if (collapse(full, CollapseState{depth, {}, {}}).nodes.size() <= budget)
            return depth;
    return 0;
}

std::optional<std::size_t> DisplayGraph::findNode(const std::string& key) const
{
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].key == key)
            return i;
    return std::nullopt;
}

int DisplayGraph::findCluster(const std::string& path) const
{
    for (std::size_t i = 0; i < clusters.size(); ++i)
        if (clusters[i].path == path)
            return static_cast<int>(i);
    return -1;
}

int DisplayGraph::scopeDepth() const
{
    int depth = 0;
    for (const DisplayCluster& c : clusters)
        depth = std::max(depth, c.depth + 1);
    return depth;
}

std::size_t DisplayGraph::countEdges(EdgeKind kind) const
{
    return static_cast<std::size_t>(
        std::count_if(edges.begin(), edges.end(), [&](const DisplayEdge& e) { return e.kind == kind; }));
}

std::uint64_t DisplayGraph::structureHash() const
{
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&](std::uint64_t v) {
        for (int i = 0; i < 8; ++i) {
            h ^= (v >> (8 * i)) & 0xffu;
            h *= 1099511628211ull;
        }
    };
    auto mixText = [&](const std::string& s) {
        mix(s.size());
        for (unsigned char ch : s)
            mix(ch);
    };
    for (const DisplayNode& n : nodes) {
        mixText(n.key);
        mix(static_cast<std::uint64_t>(n.kind));
        mix(static_cast<std::uint64_t>(std::llround(n.width * 100.0)));
        mix(static_cast<std::uint64_t>(std::llround(n.height * 100.0)));
        mix(static_cast<std::uint64_t>(n.cluster + 1));
    }
    for (const DisplayCluster& c : clusters) {
        mixText(c.path);
        mixText(c.title);
        mix(static_cast<std::uint64_t>(c.parent + 1));
    }
    for (const DisplayEdge& e : edges) {
        mix(e.from);
        mix(e.to);
        mix(static_cast<std::uint64_t>(e.kind));
    }
    return h;
}

void estimateSize(DisplayNode& node)
{
    // DejaVu Sans at 10 pt averages about 6 pt per character; Cell titles are bold.
    const double perChar = node.kind == NodeKind::Cell ? 6.6 : 6.0;
    const std::size_t chars = std::max({node.title.size(), node.detail.size(), node.tangent.size()});
    node.width = std::max(54.0, static_cast<double>(chars) * perChar + 18.0);
    node.height = node.detail.empty() ? 26.0 : 38.0;
    if (!node.tangent.empty())
        node.height += 12.0;
    if (node.kind == NodeKind::Cell)
        node.height += 6.0;
}

NodeColors nodeColors(NodeKind kind, Phase phase, NodeState state)
{
    if (state == NodeState::Current)
        return {"#fde047", "#a16207", "#111827"};
    if (kind == NodeKind::Parameter)
        return {"#fef3c7", "#b45309", "#1f2937"};
    if (kind == NodeKind::Input)
        return {"#f3f4f6", "#4b5563", "#1f2937"};
    const bool cell = kind == NodeKind::Cell;
    NodeColors c{};
    switch (phase) {
    case Phase::Forward: c = {cell ? "#bfdbfe" : "#dbeafe", "#1d4ed8", "#0f172a"}; break;
    case Phase::Backward: c = {cell ? "#fecaca" : "#fee2e2", "#b91c1c", "#1f0a0a"}; break;
    case Phase::Update: c = {cell ? "#bbf7d0" : "#dcfce7", "#15803d", "#052e16"}; break;
    }
    if (state == NodeState::Pending)
        c.fill = "#f9fafb", c.text = "#6b7280";
    return c;
}

const char* clusterFill(Phase phase)
{
    switch (phase) {
    case Phase::Forward: return "#f3f7ff";
    case Phase::Backward: return "#fff6f6";
    case Phase::Update: return "#f3fcf6";
    }
    return "#f9fafb";
}

const char* graphPartName(GraphPart part)
{
    switch (part) {
    case GraphPart::Forward: return "forward";
    case GraphPart::Backward: return "backward";
    case GraphPart::TrainStep: return "train-step";
    }
    return "train-step";
}

std::optional<GraphPart> parseGraphPart(std::string_view text)
{
    for (GraphPart p : {GraphPart::Forward, GraphPart::Backward, GraphPart::TrainStep})
        if (text == graphPartName(p))
            return p;
    return std::nullopt;
}

} // namespace gradstep::display
