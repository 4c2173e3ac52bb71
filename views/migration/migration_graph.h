// The two sides of a migration comparison as one graph for the graph view: PyTorch's modules on
// the left and MindSpore's Cells on the right, each side a cluster with its containers nested
// inside, a node per module output in execution order (chained in that order: the captures
// record no data flow) and the loss last; a dashed link joins each matched pair. Nodes are
// coloured by their pair's difference. No widget here. SPDX-License-Identifier: MIT
#pragma once

#include "migrate/compared_pairs.h"
#include "views/graph_items.h"

#include "display/display_graph.h"

#include <QString>
#include <map>
#include <memory>
#include <vector>

namespace gradstep::views {

enum class MigrationSide { Torch, MindSpore };

/// The graph node key of a module's `call`-th output on one side ("T:conv1#1"), of the side's
/// loss ("T:loss"), and of a pair (its module's first output for a gradient or an update).
QString migrationNodeKey(MigrationSide side, const std::string& module, std::int64_t call = 1);
QString migrationLossKey(MigrationSide side);
QString pairNodeKey(MigrationSide side, const migrate::ComparedPair& pair);

/// The graph of both sides' first step (step 1's forward records); `pairs` number the nodes and
/// link the matched ones.
std::shared_ptr<display::DisplayGraph> buildMigrationGraph(const migrate::Capture& torch, const migrate::Capture& ms,
                                                           const std::vector<migrate::ComparedPair>& pairs);

/// The colour of a pair's difference: equal green, within tolerance teal, diverges red,
/// unmatched grey.
NodeStyle pairStyle(migrate::PairStatus status, bool dark);

/// Node colours for the graph view: every node with a forward (or loss) pair in its pair's
/// colour, every other node unmatched.
std::map<QString, NodeStyle> migrationNodeStyles(const display::DisplayGraph& graph,
                                                 const std::vector<migrate::ComparedPair>& pairs, bool dark);

} // namespace gradstep::views
