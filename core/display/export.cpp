// DOT writers and the file exports. Graphviz's y axis grows upwards: positioned DOT flips the
// LayoutResult's coordinates back. SPDX-License-Identifier: MIT
#include "display/export.h"

#include "display/graphviz_backend.h"
#include "graph/dot_export.h"
#include "tensor/errors.h"

#include <atomic>
#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace gradstep::display {

namespace {

std::string num(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", v);
    return buffer;
}

std::string nodeLabel(const DisplayNode& n)
{
    std::string label = n.detail.empty() ? n.title : n.title + "\n" + n.detail;
    return n.tangent.empty() ? label : label + "\n" + n.tangent;
}

std::string nodeStyle(const DisplayNode& n)
{
    const NodeColors c = nodeColors(n.kind, n.phase, n.state);
    std::string s = std::string("fillcolor=\"") + c.fill + "\", color=\"" + c.stroke + "\", fontcolor=\"" + c.text + "\"";
    switch (n.kind) {
    case NodeKind::Op: s += ", shape=box, style=\"rounded,filled\""; break;
    case NodeKind::Cell: s += ", shape=box, style=\"filled,bold\", penwidth=1.6"; break;
    case NodeKind::Parameter: s += ", shape=ellipse, style=filled"; break;
    case NodeKind::Input: s += ", shape=box, style=\"filled,dashed\""; break;
    }
    if (n.state == NodeState::Current)
        s += ", penwidth=2.5";
    else if (n.halfPrecision) // the window's amber tab, as a border the image keeps
        s += ", color=\"#ef6c00\", penwidth=2.0";
    return s;
}

std::string edgeStyle(const DisplayGraph& g, const DisplayEdge& e)
{
    if (e.kind == EdgeKind::CrossLink)
        return "style=dashed, color=\"#9ca3af\", arrowhead=vee, arrowsize=0.6";
    const Phase phase = g.nodes[e.to].phase;
    std::string s = phase == Phase::Backward ? "color=\"#b91c1c\"" : phase == Phase::Update ? "color=\"#15803d\"" : "color=\"#374151\"";
    if (!e.label.empty())
        s += ", tooltip=" + dotQuoted(e.label);
    if (e.count > 1)
        s += ", penwidth=" + num(std::min(3.0, 1.0 + 0.25 * static_cast<double>(e.count)));
    return s;
}

const char* kHeader = "    fontname=\"DejaVu Sans\"; fontsize=10; labeljust=l;\n"
                      "    node [fontname=\"DejaVu Sans\", fontsize=10];\n"
                      "    edge [arrowsize=0.7];\n";

/// Clusters nested as subgraphs; `body(node)` prints one node line, `clusterAttrs(c)` a cluster's.
template <class NodeLine, class ClusterAttrs>
void writeTree(std::string& out, const DisplayGraph& g, NodeLine nodeLine, ClusterAttrs clusterAttrs)
{
    std::vector<std::vector<std::size_t>> childClusters(g.clusters.size() + 1), childNodes(g.clusters.size() + 1);
    for (std::size_t c = 0; c < g.clusters.size(); ++c)
        childClusters[static_cast<std::size_t>(g.clusters[c].parent + 1)].push_back(c);
    for (std::size_t n = 0; n < g.nodes.size(); ++n)
        childNodes[static_cast<std::size_t>(g.nodes[n].cluster + 1)].push_back(n);
    auto write = [&](auto& self, std::size_t slot, const std::string& indent) -> void {
        for (std::size_t n : childNodes[slot])
            out += indent + nodeLine(n) + ";\n";
        for (std::size_t c : childClusters[slot]) {
            out += indent + "subgraph cluster_" + std::to_string(c) + " {\n";
            out += indent + "    " + clusterAttrs(c) + ";\n";
            self(self, c + 1, indent + "    ");
            out += indent + "}\n";
        }
    };
    write(write, 0, "    ");
}

std::string clusterStyle(const DisplayCluster& c)
{
    return "label=" + dotQuoted(c.title) + "; style=\"rounded,filled\"; fillcolor=\"" + clusterFill(c.phase)
           + "\"; color=\"#cbd5e1\"";
}

} // namespace

std::optional<ExportFormat> parseExportFormat(std::string_view text)
{
    if (text == "svg")
        return ExportFormat::Svg;
    if (text == "png")
        return ExportFormat::Png;
    if (text == "pdf")
        return ExportFormat::Pdf;
    if (text == "dot" || text == "gv")
        return ExportFormat::Dot;
    return std::nullopt;
}

const char* exportFormatName(ExportFormat format)
{
    switch (format) {
    case ExportFormat::Svg: return "svg";
    case ExportFormat::Png: return "png";
    case ExportFormat::Pdf: return "pdf";
    case ExportFormat::Dot: return "dot";
    }
    return "svg";
}

std::string toDot(const DisplayGraph& g, const LayoutOptions& options)
{
    std::string out = "digraph gradstep {\n";
    out += "    nodesep=" + num(options.nodeSep / 72.0) + "; ranksep=" + num(options.rankSep / 72.0) + ";\n";
    out += kHeader;
    writeTree(
        out, g,
        [&](std::size_t n) {
            const DisplayNode& node = g.nodes[n];
            return "n" + std::to_string(n) + " [label=" + dotQuoted(nodeLabel(node)) + ", " + nodeStyle(node)
                   + ", tooltip=" + dotQuoted(node.key) + "]";
        },
        [&](std::size_t c) { return clusterStyle(g.clusters[c]); });
    for (const DisplayEdge& e : g.edges) {
        const bool back = e.kind == EdgeKind::Data && options.mirrorBackward && g.nodes[e.from].phase == Phase::Backward
                          && g.nodes[e.to].phase == Phase::Backward;
        const std::size_t tail = back ? e.to : e.from, head = back ? e.from : e.to;
        out += "    n" + std::to_string(tail) + " -> n" + std::to_string(head) + " [" + edgeStyle(g, e);
        if (back)
            out += ", dir=back";
        if (e.kind == EdgeKind::CrossLink)
            out += ", constraint=false";
        out += "];\n";
    }
    return out + "}\n";
}

std::string toPositionedDot(const LayoutResult& layout)
{
    const DisplayGraph& g = *layout.graph;
    const double height = layout.bounds.height;
    auto pos = [&](Point p) { return num(p.x) + "," + num(height - p.y); };
    std::string out = "digraph gradstep {\n";
    out += "    bb=\"0,0," + num(layout.bounds.width) + "," + num(height) + "\"; pad=0.2; bgcolor=white;\n";
    out += kHeader;
    writeTree(
        out, g,
        [&](std::size_t n) {
            const DisplayNode& node = g.nodes[n];
            const Rect& r = layout.nodes[n];
            return "n" + std::to_string(n) + " [label=" + dotQuoted(nodeLabel(node)) + ", " + nodeStyle(node)
                   + ", pos=\"" + pos(r.center()) + "\", width=" + num(r.width / 72.0)
                   + ", height=" + num(r.height / 72.0) + ", fixedsize=true]";
        },
        [&](std::size_t c) {
            const Rect& r = layout.clusters[c];
            const DisplayCluster& cluster = g.clusters[c];
            const double labelWidth = static_cast<double>(cluster.title.size()) * 6.8;
            return clusterStyle(cluster) + "; bb=\"" + num(r.x) + "," + num(height - r.bottom()) + ","
                   + num(r.right()) + "," + num(height - r.y) + "\"; lp=\""
                   + pos(Point{r.x + 10.0 + labelWidth / 2.0, r.y + 9.0}) + "\"";
        });
    for (const EdgeGeometry& geometry : layout.edges) {
        const DisplayEdge& e = g.edges[geometry.edge];
        std::string points = "e," + pos(geometry.arrowTip);
        for (const Point& p : geometry.points)
            points += " " + pos(p);
        out += "    n" + std::to_string(e.from) + " -> n" + std::to_string(e.to) + " [" + edgeStyle(g, e)
               + ", pos=\"" + points + "\"];\n";
    }
    return out + "}\n";
}

void writeFileAtomically(const std::filesystem::path& path, std::string_view contents)
{
    static std::atomic<unsigned> counter{0};
    std::filesystem::path temp = path;
    temp += ".tmp" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    {
        std::ofstream file(temp, std::ios::binary | std::ios::trunc);
        file.write(contents.data(), static_cast<std::streamsize>(contents.size()));
        file.close();
        if (!file) {
            std::error_code ignored;
            std::filesystem::remove(temp, ignored);
            throw RuntimeError("cannot write " + path.string());
        }
    }
    std::error_code error;
    std::filesystem::rename(temp, path, error);
    if (error) {
        std::filesystem::remove(temp, error);
        throw RuntimeError("cannot write " + path.string());
    }
}

void exportGraph(const LayoutResult& layout, ExportFormat format, const std::filesystem::path& path,
                 const LayoutOptions& options)
{
    if (format == ExportFormat::Dot) {
        writeFileAtomically(path, toDot(*layout.graph, options));
        return;
    }
    const std::filesystem::path parent = path.parent_path();
    if (!parent.empty() && !std::filesystem::is_directory(parent))
        throw RuntimeError("cannot write " + path.string() + ": no directory " + parent.string());
    static std::atomic<unsigned> counter{0};
    std::filesystem::path temp = path;
    temp += ".tmp" + std::to_string(::getpid()) + "-r" + std::to_string(counter++);
    const std::string dot = toPositionedDot(layout);
    try {
        LayoutEngine::instance().runOnWorker(
            [&] { detail::renderPositioned(dot, exportFormatName(format), temp.string()); });
        std::filesystem::rename(temp, path);
    } catch (const std::exception& e) {
        std::error_code ignored;
        std::filesystem::remove(temp, ignored);
        throw RuntimeError("cannot write " + path.string() + ": " + e.what());
    }
}

} // namespace gradstep::display
