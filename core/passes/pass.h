// A graph pass: a pure function from a graph to a new graph, with a declared identity (name,
// summary, description, prerequisites) in one auditable table. SPDX-License-Identifier: MIT
#pragma once

#include "graph/graph.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gradstep {

struct PassResult {
    Graph graph;
    bool changed = false;
    std::string summary; ///< one line: "removed 3 nodes, 1 constant"
    std::vector<std::pair<std::string, std::int64_t>> stats;
};

using PassFn = PassResult (*)(const Graph& graph);

struct PassInfo {
    std::string_view name;                       ///< "dce"
    std::string_view summary;                    ///< one line for lists and menus
    std::string_view description;                ///< what the pass does and what it does not do
    std::vector<std::string_view> prerequisites; ///< passes that must run before it in a pipeline
    PassFn run = nullptr;
    /// Whether a pipeline also runs it inside subgraphs (If branches, While and WhileGrad bodies,
    /// custom bprops; not fused nodes' members, which only document the fused kernel).
    bool insideSubgraphs = true;
};

/// pass.run on every subgraph first (recursively), then on the graph itself; the result is
/// changed when any of them changed. Passes with insideSubgraphs false run on `graph` only.
PassResult runPassEverywhere(const PassInfo& pass, const Graph& graph);

extern const PassInfo kDcePass;
extern const PassInfo kCsePass;
extern const PassInfo kConstantFoldPass;
extern const PassInfo kAlgebraicSimplifyPass;
extern const PassInfo kPoolReluGradFusionPass;
extern const PassInfo kPoolBeforeReluPass;
extern const PassInfo kConvColsReusePass;
extern const PassInfo kElementwiseFusionPass;
extern const PassInfo kBufferReusePass;

/// Every pass, in the order of the default pipeline.
const std::vector<const PassInfo*>& passRegistry();
/// nullptr when no pass has that name.
const PassInfo* findPass(std::string_view name);

/// Ops that must not be merged, folded or duplicated because they draw random numbers.
bool hasSideEffects(const OpDef& op);

} // namespace gradstep
