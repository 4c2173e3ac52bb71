// SPDX-License-Identifier: MIT
#include "views/graph_export.h"

#include "display/export.h"
#include "views/graph_view.h"

#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <algorithm>
#include <exception>
#include <map>

namespace gradstep::views {

namespace {

/// The layout cut to the nodes whose boxes meet `visible` (scene points), with the edges between
/// them and the Cells holding them (indices renumbered).
display::LayoutResult visiblePart(const GraphView& view, const QRectF& visible)
{
    const display::LayoutResult& all = *view.layout();
    const display::DisplayGraph& g = *all.graph;
    const display::Rect area{visible.x(), visible.y(), visible.width(), visible.height()};
    auto part = std::make_shared<display::DisplayGraph>();
    display::LayoutResult out;
    std::map<std::size_t, std::size_t> nodeIndex;
    std::map<int, int> clusterIndex;
    const auto keepCluster = [&](auto&& self, int c) -> int {
        if (c < 0)
            return -1;
        if (const auto it = clusterIndex.find(c); it != clusterIndex.end())
            return it->second;
        display::DisplayCluster cluster = g.clusters[std::size_t(c)];
        cluster.parent = self(self, cluster.parent); // parents before children
        part->clusters.push_back(cluster);
        out.clusters.push_back(all.clusters[std::size_t(c)]);
        return clusterIndex[c] = int(part->clusters.size()) - 1;
    };
    const GraphPicture& picture = view.picture();
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        if (!all.nodes[i].intersects(area))
            continue;
        display::DisplayNode node = g.nodes[i];
        if (i < picture.nodes.size())
            node.state = picture.nodes[i].state; // the states on screen
        node.cluster = keepCluster(keepCluster, node.cluster);
        nodeIndex[i] = part->nodes.size();
        part->nodes.push_back(std::move(node));
        out.nodes.push_back(all.nodes[i]);
    }
    for (const display::EdgeGeometry& geometry : all.edges) {
        const auto from = nodeIndex.find(g.edges[geometry.edge].from);
        const auto to = nodeIndex.find(g.edges[geometry.edge].to);
        if (from == nodeIndex.end() || to == nodeIndex.end())
            continue;
        display::DisplayEdge edge = g.edges[geometry.edge];
        edge.from = from->second;
        edge.to = to->second;
        display::EdgeGeometry moved = geometry;
        moved.edge = part->edges.size();
        part->edges.push_back(edge);
        out.edges.push_back(std::move(moved));
    }
    // Positions from the visible area's top-left corner, where the DOT's bounding box starts.
    const auto shift = [&](display::Point& p) {
        p.x -= area.x;
        p.y -= area.y;
    };
    const auto shiftRect = [&](display::Rect& r) {
        r.x -= area.x;
        r.y -= area.y;
    };
    for (display::Rect& r : out.nodes)
        shiftRect(r);
    for (display::Rect& r : out.clusters) {
        // Cells reaching beyond the view are cut at its edges, as on screen.
        shiftRect(r);
        const double right = std::min(r.right(), area.width), bottom = std::min(r.bottom(), area.height);
        r.x = std::max(r.x, 0.0);
        r.y = std::max(r.y, 0.0);
        r.width = std::max(right - r.x, 0.0);
        r.height = std::max(bottom - r.y, 0.0);
    }
    for (display::EdgeGeometry& e : out.edges) {
        for (display::Point& p : e.points)
            shift(p);
        shift(e.arrowTip);
    }
    out.graph = std::move(part);
    out.bounds = {0.0, 0.0, area.width, area.height};
    out.method = all.method;
    out.collapseDepth = all.collapseDepth;
    return out;
}

} // namespace

QString exportVisibleGraph(GraphView& view, const QString& path)
{
    if (!view.layout() || !view.layout()->graph)
        return QObject::tr("there is no graph to export yet");
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QRect port = view.viewport()->rect();
    const QRectF visible = view.mapToScene(port).boundingRect().intersected(view.sceneRect());
    if (suffix == QLatin1String("dot") || suffix == QLatin1String("gv")) {
        try {
            display::writeFileAtomically(path.toStdString(), display::toPositionedDot(visiblePart(view, visible)));
        } catch (const std::exception& e) {
            return QString::fromUtf8(e.what());
        }
        return QString();
    }
    const auto paint = [&](QPaintDevice& device, const QRectF& target) {
        QPainter painter(&device);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        view.render(&painter, target, port);
        return painter.end();
    };
    bool ok = false;
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(port.size());
        svg.setViewBox(QRect(QPoint(0, 0), port.size()));
        svg.setTitle(QObject::tr("gradstep graph (visible part)"));
        ok = paint(svg, QRectF(QPointF(0, 0), port.size()));
    } else if (suffix == QLatin1String("png")) {
        QImage image(port.size() * 2, QImage::Format_ARGB32_Premultiplied);
        image.fill(view.palette().color(QPalette::Base));
        ok = paint(image, QRectF(QPointF(0, 0), image.size())) && image.save(path, "PNG");
    } else if (suffix == QLatin1String("pdf")) {
        QPdfWriter pdf(path);
        pdf.setPageSize(QPageSize(QSizeF(port.width(), port.height()), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(144);
        ok = paint(pdf, QRectF(0, 0, pdf.width(), pdf.height()));
    } else {
        return QObject::tr("cannot export to '%1': expected a .svg, .png, .pdf or .dot file").arg(path);
    }
    return ok ? QString() : QObject::tr("cannot write %1").arg(path);
}

} // namespace gradstep::views
