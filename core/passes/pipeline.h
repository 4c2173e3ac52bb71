// Runs a list of passes, keeping every intermediate graph so a view can show each pass's before
// and after. SPDX-License-Identifier: MIT
#pragma once

#include "passes/pass.h"

#include <span>
#include <string_view>

namespace gradstep {

struct PipelineStep {
    std::string_view pass;
    bool changed = false;
    std::string summary;
    std::vector<std::pair<std::string, std::int64_t>> stats;
    double milliseconds = 0;
    Graph graph; ///< the graph after this pass (kept only when asked for)
};

struct PipelineResult {
    Graph graph;
    std::vector<PipelineStep> steps;
    /// One line per pass: "dce: removed 2 nodes and 0 constants (0.01 ms)".
    std::string report() const;
};

/// The passes graph mode runs, in order.
std::vector<std::string_view> defaultPipeline();

/// Runs the named passes in order. ValueError for an unknown pass or one whose prerequisites do
/// not run before it.
PipelineResult runPipeline(const Graph& graph, std::span<const std::string_view> passes,
                           bool keepIntermediates = false);

} // namespace gradstep
