// The only door to Graphviz (gvc + cgraph). Its headers define MIN/MAX/TRUE macros and take
// non-const char*, so they stay inside graphviz_backend.cpp. Every function here must run on
// the LayoutEngine's worker thread: Graphviz is not thread-safe. SPDX-License-Identifier: MIT
#pragma once

#include "display/layout.h"

#include <string>

namespace gradstep::display::detail {

/// dot over `graph` (cross links left out, backward edges reversed when mirroring). Edges dot
/// did not route have no points: finishGeometry routes them.
LayoutResult dotLayout(std::shared_ptr<const DisplayGraph> graph, const LayoutOptions& options);
/// After dot: puts the optimizer's nodes on the far side of the backward pass (mirroring that
/// component when dot put them between forward and backward), then routes every edge without
/// points (cross links) as a straight curve. No Graphviz call; any thread.
void finishGeometry(LayoutResult& layout);
/// Renders DOT text whose nodes, edges and clusters carry pos/bb (the nop2 engine keeps them)
/// to `path` in `format` ("svg", "png", "pdf").
void renderPositioned(const std::string& dotText, const std::string& format, const std::string& path);
/// Frees the process's Graphviz context; called once when the worker ends.
void releaseGraphviz();

} // namespace gradstep::display::detail
