// Graphviz DOT text for a graph: Cell scopes as nested clusters, op and shape on each node,
// phase colours, deterministic output. Pure text: no Graphviz library (views lay it out).
// SPDX-License-Identifier: MIT
#pragma once

#include "graph/graph.h"

#include <cstddef>
#include <string>

namespace gradstep {

struct DotOptions {
    /// Draw the members of fused nodes and the branches and bodies of If and While inside a
    /// cluster; otherwise such a node is one box.
    bool expandSubgraphs = true;
    /// Draw constants as nodes (scalars show their value).
    bool showConstants = true;
    /// Longer labels are cut with "...".
    std::size_t maxLabelLength = 48;
};

/// Node ids in the output: "n<id>" for nodes, "a<i>" for inputs, "c<id>" for constants, "out"
/// for the outputs; inside an expanded node they are prefixed by "n<id>_<subgraph>_".
std::string exportDot(const Graph& graph, const DotOptions& options = {});

/// A DOT double-quoted string: quotes and backslashes escaped, newlines as \n.
std::string dotQuoted(std::string_view text);

} // namespace gradstep
