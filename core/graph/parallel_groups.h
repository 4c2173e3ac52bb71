// Which nodes of a graph may run at the same time (see Note [Inter-op parallelism]).
// SPDX-License-Identifier: MIT
#pragma once

#include "graph/graph.h"

#include <cstdint>
#include <vector>

namespace gradstep {

/// A run of consecutive nodes [begin, end) of a graph's node list that do not read each other's
/// outputs, so they may run in any order or at once. `parallel` says whether running them at
/// once is worth waking a worker: at least two of them each touch kMinParallelElements or more.
struct NodeGroup {
    NodeId begin = 0;
    NodeId end = 0;
    bool parallel = false;
};

/// Elements a node reads and writes, the executor's estimate of its cost.
std::int64_t nodeWork(const Graph& graph, const GraphNode& node);
inline constexpr std::int64_t kMinParallelElements = 16384;

/// Whether a node may share a group: op and fused nodes whose kernels only read their inputs.
/// Control flow runs sub-executors and custom bprops may run Python; ops that write an input
/// (optimizer updates) keep their place in the order.
bool groupable(const GraphNode& node);

/// The graph's nodes cut greedily into maximal groups, in order; every node is in exactly one.
std::vector<NodeGroup> nodeGroups(const Graph& graph);

/// Per node, its step in the memory plan (buffer_reuse): the nodes of a parallel group share
/// one step, so values read and written in one group never share a buffer and the executor
/// may run the group's nodes at once; every other node is a step of its own.
std::vector<std::uint32_t> planSteps(const Graph& graph);

} // namespace gradstep
