// Exporting what the graph view shows right now: the visible part of the scene, at the view's
// zoom, as SVG or PDF (vector, drawn by Qt) or PNG (at twice the screen resolution), or as DOT
// with the visible nodes' pinned positions (the edges between them, their Cells).
// GraphView::exportTo writes the whole graph instead. SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace gradstep::views {

class GraphView;

/// Returns an error message, empty on success.
QString exportVisibleGraph(GraphView& view, const QString& path);

} // namespace gradstep::views
