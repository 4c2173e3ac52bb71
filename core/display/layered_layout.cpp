// The fallback for graphs too large for dot even after collapsing: longest-path layering over the
// data edges (backward ones reversed as for dot), two barycentre sweeps to order each layer,
// nodes packed left to right, straight edges. Clusters are the boxes around their members, so
// they may overlap each other; node boxes never do. Linear in nodes and edges per sweep.
// SPDX-License-Identifier: MIT
#include "display/layout.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gradstep::display {

namespace {

struct LayerEdge {
    std::size_t from, to;
};

std::vector<LayerEdge> layerEdges(const DisplayGraph& g, const LayoutOptions& options)
{
    std::vector<LayerEdge> out;
    for (const DisplayEdge& e : g.edges) {
        if (e.kind != EdgeKind::Data)
            continue;
        const bool back = options.mirrorBackward && g.nodes[e.from].phase == Phase::Backward
                          && g.nodes[e.to].phase == Phase::Backward;
        out.push_back(back ? LayerEdge{e.to, e.from} : LayerEdge{e.from, e.to});
    }
    return out;
}

/// Longest path from the sources, in Kahn order; nodes on a cycle keep the layer reached so far.
std::vector<int> assignLayers(std::size_t n, const std::vector<LayerEdge>& edges)
{
    std::vector<std::vector<std::size_t>> out(n);
    std::vector<int> indegree(n, 0), layer(n, 0);
    for (const LayerEdge& e : edges) {
        out[e.from].push_back(e.to);
        ++indegree[e.to];
    }
    std::vector<std::size_t> ready;
    for (std::size_t i = 0; i < n; ++i)
        if (indegree[i] == 0)
            ready.push_back(i);
    for (std::size_t head = 0; head < ready.size(); ++head)
        for (std::size_t next : out[ready[head]]) {
            layer[next] = std::max(layer[next], layer[ready[head]] + 1);
            if (--indegree[next] == 0)
                ready.push_back(next);
        }
    return layer;
}

void sweep(std::vector<std::vector<std::size_t>>& layers, const std::vector<std::vector<std::size_t>>& neighbours,
           std::vector<double>& position)
{
    for (std::vector<std::size_t>& layer : layers) {
        std::vector<double> key(layer.size());
        for (std::size_t i = 0; i < layer.size(); ++i) {
            const auto& adj = neighbours[layer[i]];
            double sum = 0.0;
            for (std::size_t m : adj)
                sum += position[m];
            key[i] = adj.empty() ? position[layer[i]] : sum / static_cast<double>(adj.size());
        }
        std::vector<std::size_t> order(layer.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
        std::vector<std::size_t> sorted;
        for (std::size_t i : order)
            sorted.push_back(layer[i]);
        layer = std::move(sorted);
        for (std::size_t i = 0; i < layer.size(); ++i)
            position[layer[i]] = static_cast<double>(i);
    }
}

} // namespace

LayoutResult layeredLayout(std::shared_ptr<const DisplayGraph> graph, const LayoutOptions& options)
{
    const DisplayGraph& g = *graph;
    const std::vector<LayerEdge> edges = layerEdges(g, options);
    const std::vector<int> layerOf = assignLayers(g.nodes.size(), edges);
    const int count = layerOf.empty() ? 0 : *std::max_element(layerOf.begin(), layerOf.end()) + 1;
    std::vector<std::vector<std::size_t>> layers(static_cast<std::size_t>(count));
    std::vector<double> position(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
        auto& layer = layers[static_cast<std::size_t>(layerOf[i])];
        position[i] = static_cast<double>(layer.size());
        layer.push_back(i);
    }
    std::vector<std::vector<std::size_t>> up(g.nodes.size()), down(g.nodes.size());
    for (const LayerEdge& e : edges) {
        up[e.to].push_back(e.from);
        down[e.from].push_back(e.to);
    }
    sweep(layers, up, position);
    std::reverse(layers.begin(), layers.end());
    sweep(layers, down, position);
    std::reverse(layers.begin(), layers.end());

    LayoutResult r;
    r.graph = graph;
    r.method = LayoutMethod::Layered;
    r.nodes.resize(g.nodes.size());
    double y = 0.0, width = 0.0;
    for (const auto& layer : layers) {
        double x = 0.0, height = 0.0;
        for (std::size_t n : layer) {
            r.nodes[n] = Rect{x, y, g.nodes[n].width, g.nodes[n].height};
            x += g.nodes[n].width + options.nodeSep;
            height = std::max(height, g.nodes[n].height);
        }
        width = std::max(width, x);
        y += height + options.rankSep;
    }
    r.bounds = Rect{0.0, 0.0, width, std::max(0.0, y - options.rankSep)};
    for (std::size_t e = 0; e < g.edges.size(); ++e)
        r.edges.push_back(straightEdge(e, r.nodes[g.edges[e].from], r.nodes[g.edges[e].to]));
    r.clusters.assign(g.clusters.size(), Rect{});
    std::vector<bool> seen(g.clusters.size(), false);
    for (std::size_t n = 0; n < g.nodes.size(); ++n)
        for (int c = g.nodes[n].cluster; c >= 0; c = g.clusters[static_cast<std::size_t>(c)].parent) {
            Rect& box = r.clusters[static_cast<std::size_t>(c)];
            const Rect& node = r.nodes[n];
            if (!seen[static_cast<std::size_t>(c)]) {
                box = node;
                seen[static_cast<std::size_t>(c)] = true;
                continue;
            }
            const double right = std::max(box.right(), node.right()), bottom = std::max(box.bottom(), node.bottom());
            box.x = std::min(box.x, node.x);
            box.y = std::min(box.y, node.y);
            box.width = right - box.x;
            box.height = bottom - box.y;
        }
    return r;
}

EdgeGeometry straightEdge(std::size_t edge, const Rect& from, const Rect& to)
{
    // Leave each box where the line from centre to centre crosses its border.
    auto border = [](const Rect& box, Point towards) {
        const Point c = box.center();
        const double dx = towards.x - c.x, dy = towards.y - c.y;
        if (dx == 0.0 && dy == 0.0)
            return c;
        const double sx = dx == 0.0 ? 1e300 : (box.width / 2.0) / std::abs(dx);
        const double sy = dy == 0.0 ? 1e300 : (box.height / 2.0) / std::abs(dy);
        const double s = std::min({sx, sy, 1.0});
        return Point{c.x + dx * s, c.y + dy * s};
    };
    const Point start = border(from, to.center());
    const Point tip = border(to, from.center());
    const double dx = tip.x - start.x, dy = tip.y - start.y;
    const double length = std::hypot(dx, dy);
    const double arrow = length > 20.0 ? 9.0 : length / 3.0;
    const Point end = length > 0.0 ? Point{tip.x - dx / length * arrow, tip.y - dy / length * arrow} : tip;
    EdgeGeometry g;
    g.edge = edge;
    g.points = {start, {start.x + (end.x - start.x) / 3.0, start.y + (end.y - start.y) / 3.0},
                {start.x + 2.0 * (end.x - start.x) / 3.0, start.y + 2.0 * (end.y - start.y) / 3.0}, end};
    g.arrowTip = tip;
    return g;
}

} // namespace gradstep::display
