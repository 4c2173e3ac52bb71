// Rebuilding a graph node by node with some values replaced: the common machinery of passes,
// which never modify their input. SPDX-License-Identifier: MIT
#pragma once

#include "graph/graph.h"

#include <memory>

namespace gradstep {

class GraphRewriter {
public:
    /// Starts a copy of `source` holding its inputs and constants (in order; only those marked in
    /// `keepConstants` when given); nodes are copied or replaced by the pass, then finish() maps
    /// the outputs.
    explicit GraphRewriter(const Graph& source, const std::vector<bool>* keepConstants = nullptr);

    /// The value of the new graph standing for `old`.
    ValueId map(ValueId old) const;
    /// From now on `old` stands for `replacement` (a value of the new graph).
    void replace(ValueId old, ValueId replacement);
    /// Copies `node` over the mapped inputs (with `subgraphs` instead of its own when given).
    std::vector<ValueId> copy(const GraphNode& node,
                              const std::vector<std::shared_ptr<const Graph>>* subgraphs = nullptr);
    /// Maps a node of the source to its copy (kNoId when it was not copied).
    NodeId mappedNode(NodeId old) const { return m_nodes[old]; }
    Graph& graph() { return m_graph; }
    Graph finish();

private:
    const Graph& m_source;
    Graph m_graph;
    std::vector<ValueId> m_values;
    std::vector<NodeId> m_nodes;
};

/// Whether `node` applies the registry op `op` (not a control-flow or fused node).
inline bool isOpNode(const GraphNode& node, const OpDef& op) { return node.kind == NodeKind::Op && node.op == &op; }
/// The node producing v when v is a node output (null for inputs and constants); with `op`, only
/// when that node applies `op`.
const GraphNode* producerOf(const Graph& g, ValueId v, const OpDef* op = nullptr);

/// "3 nodes", "1 node" (plural: noun + "s" unless given).
std::string countNoun(std::int64_t count, std::string_view noun, std::string_view plural = {});

} // namespace gradstep
