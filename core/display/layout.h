// Layout of a DisplayGraph: Graphviz `dot` on ONE worker thread per process (Graphviz is not
// thread-safe), jobs queued, cancellable and cached by the graph's structure.
//
// How a training step is handed to dot (see "Graph layout facts" in shared/DESIGN.md): cross
// links never reach dot (they are routed afterwards as straight curves), and the backward pass
// is mirrored against the forward pass: its data edges are given to dot reversed, so backward
// of conv1 sits at conv1's height beside the forward column and the gradient flows upwards.
// Forward and backward are then two independent components of ranks-only edges, which dot lays
// out side by side in about the time of a chain. Above `nodeBudget` nodes the engine collapses
// Cells by depth first; above `hardLimit` it skips dot for a layered layout of its own.
// SPDX-License-Identifier: MIT
#pragma once

#include "display/display_graph.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gradstep::display {

struct Point {
    double x = 0.0;
    double y = 0.0;
};

/// A rectangle: top-left corner and size.
struct Rect {
    double x = 0.0;
    double y = 0.0;
    double width = 0.0;
    double height = 0.0;

    double right() const { return x + width; }
    double bottom() const { return y + height; }
    Point center() const { return {x + width / 2.0, y + height / 2.0}; }
    bool intersects(const Rect& o) const
    {
        return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
    }
};

/// An edge's curve: cubic Bezier control points p0 c1 c2 p1 c1 c2 p2 ... (3n+1 points) from
/// the producer's side to the consumer's, ending where the arrowhead begins; the arrowhead
/// goes from points.back() to arrowTip.
struct EdgeGeometry {
    std::size_t edge = 0; ///< index into the laid-out graph's edges
    std::vector<Point> points;
    Point arrowTip;
};

enum class LayoutMethod : std::uint8_t { Dot, Layered };

/// Everything in points, y growing downwards (Qt's scene coordinates), origin at the top-left
/// of the bounding box.
struct LayoutResult {
    /// The graph that was laid out: the input, or the input collapsed to the node budget. Node,
    /// edge and cluster indices below refer to it.
    std::shared_ptr<const DisplayGraph> graph;
    std::vector<Rect> nodes;    ///< one per graph->nodes
    std::vector<EdgeGeometry> edges; ///< one per graph->edges, same order
    std::vector<Rect> clusters; ///< one per graph->clusters
    Rect bounds;
    LayoutMethod method = LayoutMethod::Dot;
    int collapseDepth = -1;     ///< the depth the engine collapsed to (-1: none)
    double seconds = 0.0;       ///< time spent laying out (0 for a cache hit)
};

struct LayoutOptions {
    double nodeSep = 18.0;   ///< points between neighbours in a rank
    double rankSep = 30.0;   ///< points between ranks
    bool mirrorBackward = true;
    std::size_t nodeBudget = 600;  ///< above it, Cells are collapsed by depth
    std::size_t hardLimit = 3000;  ///< above it (after collapsing), the layered fallback
    bool useCache = true;

    friend bool operator==(const LayoutOptions&, const LayoutOptions&) = default;
};

enum class JobStatus : std::uint8_t { Queued, Running, Done, Cancelled, Failed };

/// The handle of one submitted layout. Thread-safe.
class LayoutJob {
public:
    JobStatus status() const;
    /// Cancels a queued job at once; a running dot cannot be interrupted, so its result is
    /// dropped when it ends. Returns false when the job had already finished.
    bool cancel();
    /// Blocks until Done, Cancelled or Failed.
    JobStatus wait() const;
    /// Done: the result (null otherwise).
    std::shared_ptr<const LayoutResult> result() const;
    std::string error() const;
    bool cacheHit() const;

private:
    friend class LayoutEngine;
    mutable std::mutex m_mutex;
    mutable std::condition_variable m_changed;
    JobStatus m_status = JobStatus::Queued;
    std::shared_ptr<const LayoutResult> m_result;
    std::string m_error;
    bool m_cacheHit = false;
};

/// Called once when a job ends (Done, Cancelled or Failed): on the worker thread, or inside
/// submit() for a cache hit. A Qt view posts it to the GUI thread.
using LayoutCallback = std::function<void(const LayoutJob&)>;

struct EngineStats {
    std::size_t layouts = 0;   ///< dot or layered runs
    std::size_t cacheHits = 0;
    std::size_t cancelled = 0;
};

class LayoutEngine {
public:
    /// The process's engine: its worker thread owns the only Graphviz context.
    static LayoutEngine& instance();

    std::shared_ptr<LayoutJob> submit(std::shared_ptr<const DisplayGraph> graph,
                                      const LayoutOptions& options = {}, LayoutCallback done = {});
    /// submit() + wait(); throws gradstep::RuntimeError when the layout failed.
    std::shared_ptr<const LayoutResult> layout(std::shared_ptr<const DisplayGraph> graph,
                                               const LayoutOptions& options = {});
    /// Runs `task` on the worker (any other Graphviz use, e.g. rendering) and waits for it;
    /// rethrows what it threw.
    void runOnWorker(std::function<void()> task);

    EngineStats stats() const;
    void clearCache();
    ~LayoutEngine();

private:
    LayoutEngine();
    struct State;
    std::unique_ptr<State> m_state;
};

/// The layout of `graph` computed right here (no queue, no cache). Graphviz is used only
/// through the engine's worker, so this is for LayoutMethod::Layered and for the worker itself.
LayoutResult layeredLayout(std::shared_ptr<const DisplayGraph> graph, const LayoutOptions& options);

/// Cross links and other edges dot did not route: a gentle curve from box to box.
EdgeGeometry straightEdge(std::size_t edge, const Rect& from, const Rect& to);

} // namespace gradstep::display
