// SPDX-License-Identifier: MIT
#include "views/graph_picture.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

namespace gradstep::views {

namespace {

constexpr double kMargin = 16.0;

QPointF toQt(const display::Point& p)
{
    return QPointF(p.x, p.y);
}

QRectF toQt(const display::Rect& r)
{
    return QRectF(r.x, r.y, r.width, r.height);
}

QString tooltipOf(const display::DisplayNode& n)
{
    QString text = QString::fromStdString(n.title);
    if (!n.detail.empty())
        text += QStringLiteral("  ") + QString::fromStdString(n.detail);
    if (!n.tangent.empty())
        text += QStringLiteral("\nforward mode: ") + QString::fromStdString(n.tangent)
                + QStringLiteral(" (dy = J · dx, the tangent of the output)");
    if (!n.scope.empty())
        text += QStringLiteral("\nin ") + QString::fromStdString(n.scope);
    if (n.halfPrecision)
        text += n.kind == display::NodeKind::Cell ? QStringLiteral("\nruns ops in half precision (float16 / bfloat16)")
                                                  : QStringLiteral("\nhalf precision (float16 / bfloat16)");
    if (n.kind == display::NodeKind::Cell)
        text += QStringLiteral("\ndouble-click to expand");
    return text;
}

/// "C:F:LeNet5/conv1" -> "LeNet5/conv1".
QString cellPathOf(const display::DisplayNode& n)
{
    if (n.kind != display::NodeKind::Cell || n.key.size() < 4)
        return QString();
    return QString::fromStdString(n.key.substr(4));
}

} // namespace

int GraphPicture::findNode(const QString& key) const
{
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].key == key)
            return int(i);
    return -1;
}

int GraphPicture::nodeOfRecord(std::uint64_t seq) const
{
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (std::find(nodes[i].records.begin(), nodes[i].records.end(), seq) != nodes[i].records.end())
            return int(i);
    return -1;
}

GraphPicture pictureFromLayout(const display::LayoutResult& layout)
{
    GraphPicture picture;
    if (!layout.graph)
        return picture;
    const display::DisplayGraph& g = *layout.graph;
    for (std::size_t i = 0; i < g.nodes.size() && i < layout.nodes.size(); ++i) {
        const display::DisplayNode& n = g.nodes[i];
        PictureNode node;
        node.key = QString::fromStdString(n.key);
        node.title = QString::fromStdString(n.title);
        node.detail = QString::fromStdString(n.detail);
        node.tangent = QString::fromStdString(n.tangent);
        node.tooltip = tooltipOf(n);
        node.cellPath = cellPathOf(n);
        node.scope = QString::fromStdString(n.scope);
        node.kind = n.kind;
        node.phase = n.phase;
        node.state = n.state;
        node.halfPrecision = n.halfPrecision;
        node.box = toQt(layout.nodes[i]);
        node.records = n.records;
        picture.nodes.push_back(std::move(node));
    }
    for (const display::EdgeGeometry& geometry : layout.edges) {
        if (geometry.edge >= g.edges.size())
            continue;
        const display::DisplayEdge& e = g.edges[geometry.edge];
        PictureEdge edge{int(e.from), int(e.to), e.kind == display::EdgeKind::CrossLink, {}, toQt(geometry.arrowTip)};
        for (const display::Point& p : geometry.points)
            edge.points.push_back(toQt(p));
        picture.edges.push_back(std::move(edge));
    }
    for (std::size_t c = 0; c < g.clusters.size() && c < layout.clusters.size(); ++c) {
        const display::DisplayCluster& cluster = g.clusters[c];
        picture.clusters.push_back({QString::fromStdString(cluster.title), QString::fromStdString(cluster.path),
                                    cluster.phase, cluster.depth, toQt(layout.clusters[c])});
    }
    picture.bounds = toQt(layout.bounds).adjusted(-kMargin, -kMargin, kMargin, kMargin);
    return picture;
}

void applyStates(GraphPicture& picture, const display::DisplayGraph& laidOut,
                 std::span<const debug::RecordPtr> executed, const debug::NodeRecord* current)
{
    display::DisplayGraph states = laidOut;
    states.setStates(executed, current);
    // The same keys as DisplayGraph::setStates, to point nodes at this step's records.
    std::unordered_map<std::string, std::uint64_t> seqOfKey;
    std::map<std::string, std::size_t> occurrences;
    for (const debug::RecordPtr& r : executed)
        seqOfKey[display::recordKey(*r, occurrences[display::phaseLetter(r->phase) + r->fullName]++)] = r->seq;
    if (current && !std::any_of(executed.begin(), executed.end(),
                                [&](const debug::RecordPtr& r) { return r->seq == current->seq; }))
        seqOfKey[display::recordKey(*current, occurrences[display::phaseLetter(current->phase) + current->fullName])] =
            current->seq;
    const auto seqOf = [&](const std::string& key) {
        const auto it = seqOfKey.find(key);
        return it == seqOfKey.end() ? std::optional<std::uint64_t>() : std::optional(it->second);
    };
    for (std::size_t i = 0; i < picture.nodes.size() && i < states.nodes.size(); ++i) {
        const display::DisplayNode& n = states.nodes[i];
        PictureNode& node = picture.nodes[i];
        node.state = n.state;
        if (n.kind == display::NodeKind::Op) {
            const auto seq = seqOf(n.key);
            node.records = seq ? std::vector<std::uint64_t>{*seq} : std::vector<std::uint64_t>{};
        } else if (n.kind == display::NodeKind::Cell) {
            node.records.clear();
            for (const std::string& member : n.members)
                if (const auto seq = seqOf(member))
                    node.records.push_back(*seq);
        }
    }
}

} // namespace gradstep::views
