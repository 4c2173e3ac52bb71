// The computation graph as people look at it: op nodes labelled with op and output shape, Cells
// as nested clusters by scope path (a collapsed Cell is one node), parameters and inputs as
// source nodes, data-flow edges, and backward -> forward "cross links" that are drawn but never
// constrain the layout. Built from the debugger's records (PyNative) or from the compiled IR
// (graph mode); the Qt graph view and `gradstep export` both read it. No Graphviz, no Qt.
// SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/identity.h"
#include "debug/node_record.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <string>
#include <vector>

namespace gradstep {
class Graph;
}

namespace gradstep::display {

enum class NodeKind : std::uint8_t { Op, Cell, Parameter, Input };
enum class NodeState : std::uint8_t { Pending, Current, Executed };
enum class EdgeKind : std::uint8_t {
    Data,     ///< a tensor from its producer to a consumer; constrains the layout
    CrossLink ///< a backward node to the forward node it differentiates; drawn, never constraining
};

/// Which records a graph shows: `gradstep export --graph forward|backward|train-step`.
enum class GraphPart : std::uint8_t { Forward, Backward, TrainStep };

struct DisplayNode {
    /// Stable across steps (step k's node has step k-1's key): "F:LeNet5/conv1/Conv2D#0" for
    /// ops (phase letter, full name, occurrence), "C:B:Gradients/LeNet5/conv1" for collapsed
    /// Cells, "P:F:conv1.weight" for parameters, "I:F:0" for inputs.
    std::string key;
    NodeKind kind = NodeKind::Op;
    Phase phase = Phase::Forward;
    std::string title;  ///< "Conv2D", a Cell's last scope name, a parameter's name, "input"
    /// The output's shape and dtype "[2, 6, 28, 28] f32" (two outputs at most, then "..."); a
    /// Cell: "12 ops"
    std::string detail;
    /// Forward mode (ops.jvp): the output's value and tangent, "y 0.841  dy 0.54" (one element)
    /// or their norms "|y| 2.31  |dy| 0.54"; "" when no tangent reached the node.
    std::string tangent;
    /// Some output is float16 or bfloat16: the views mark the node, so a user sees where the
    /// network runs in half precision and where the casts sit (Note [Mixed precision]).
    bool halfPrecision = false;
    std::string scope;  ///< the cluster path the node sits in ("" at top level)
    int cluster = -1;   ///< innermost cluster (index into DisplayGraph::clusters), -1 at top
    NodeState state = NodeState::Executed;
    /// The records this node stands for, in execution order (a collapsed Cell: all of its ops;
    /// parameters and inputs: none). From the IR: the graph's node ids.
    std::vector<std::uint64_t> records;
    std::vector<std::string> members; ///< a collapsed Cell: the keys of the op nodes it holds
    double width = 0.0;  ///< points; the builder estimates from the text, a view may measure
    double height = 0.0;
};

struct DisplayEdge {
    std::size_t from = 0; ///< index into DisplayGraph::nodes (the producer)
    std::size_t to = 0;   ///< the consumer
    EdgeKind kind = EdgeKind::Data;
    std::string label;    ///< the tensor's shape, for a tooltip
    std::size_t count = 1; ///< parallel tensors merged into this edge (collapsed Cells)
};

struct DisplayCluster {
    std::string path;  ///< "LeNet5/conv1", "Gradients/LeNet5/conv1", "Momentum/conv1.weight"
    std::string title; ///< "conv1"
    int parent = -1;
    /// 0 for a top-level Cell. The "Gradients" cluster wrapping the backward pass is -1, so its
    /// Cells have the depths of their forward twins and one collapse depth folds both alike.
    int depth = 0;
    Phase phase = Phase::Forward;
};

/// Which Cells are folded into single nodes: every cluster at depth >= `depth` (unless listed in
/// `expanded`), plus the ones listed in `collapsed`. depth < 0: none by depth.
struct CollapseState {
    int depth = -1;
    std::set<std::string> expanded;
    std::set<std::string> collapsed;

    bool isCollapsed(const DisplayCluster& cluster) const;
    friend bool operator==(const CollapseState&, const CollapseState&) = default;
};

struct BuildOptions {
    GraphPart part = GraphPart::TrainStep;
    bool parameters = true; ///< parameter nodes (forward and update)
    bool inputs = true;     ///< data and seed inputs of forward and backward (update's are noise)
};

class DisplayGraph {
public:
    std::vector<DisplayNode> nodes;
    std::vector<DisplayEdge> edges;
    std::vector<DisplayCluster> clusters; ///< parents before children

    std::optional<std::size_t> findNode(const std::string& key) const;
    int findCluster(const std::string& path) const;
    /// Deepest cluster depth + 1 (0 when there are no clusters).
    int scopeDepth() const;
    std::size_t countEdges(EdgeKind kind) const;
    /// A hash of everything the layout depends on (keys, kinds, sizes, clusters, edges), not of
    /// states: the layout cache's key.
    std::uint64_t structureHash() const;
    /// Marks nodes Executed when their records are in `executed`, Current for `current`, others
    /// Pending; a collapsed Cell is Current when it holds the current record, Executed when all
    /// of its records ran. Records match by key, so a graph built from step k-1 follows step k.
    void setStates(std::span<const debug::RecordPtr> executed, const debug::NodeRecord* current);
    /// Whether every record has its node (by key) in this fully expanded graph: false when a
    /// step ran nodes the step it was built from did not (a data-dependent branch).
    bool holdsAll(std::span<const debug::RecordPtr> records) const;
};

/// "[2, 3] f32": the shape and the IR's short dtype name (graph.h's shortDTypeName).
std::string shapeAndDType(const Shape& shape, DType dtype);

/// The graph of one step's records (a Recorder's stepRecords), fully expanded.
DisplayGraph buildFromRecords(std::span<const debug::RecordPtr> records, const BuildOptions& options = {});
/// The graph of a compiled IR graph (graph mode): op nodes, argument/parameter inputs, backward
/// nodes linked to their origin. Subgraphs of If/While/Fused stay one node each.
DisplayGraph buildFromIr(const Graph& graph);

/// `full` with Cells folded as `state` says: a folded Cell is one node (kind Cell) holding its
/// members' records; edges between folded nodes are merged; cross links that end up inside one
/// node vanish.
DisplayGraph collapse(const DisplayGraph& full, const CollapseState& state);
/// The largest collapse depth whose graph has at most `budget` nodes (-1: no collapse needed;
/// 0 when even depth 0 is over budget).
int autoCollapseDepth(const DisplayGraph& full, std::size_t budget);

/// The depth of a cluster without a parent: -1 for the backward pass's "Gradients", else 0.
int rootDepth(const std::string& path, Phase phase);
/// 'F', 'B', 'U': the phase in node keys.
char phaseLetter(Phase phase);
/// The tensor a parameter or input node of a graph built from records stands for, from its key
/// ("P:F:conv1.weight": the Parameter; "I:F:3", "I:B:3": external tensor 3); none for other keys.
/// The one reader of the key format the builder writes.
std::optional<debug::TensorId> sourceTensorOfKey(std::string_view key);
/// The stable key of the `occurrence`-th record with this phase and full name in a step.
std::string recordKey(const debug::NodeRecord& record, std::size_t occurrence);
/// Text size estimate used for node boxes (points, 10 pt sans): a view with real fonts may
/// overwrite DisplayNode::width/height before layout.
void estimateSize(DisplayNode& node);

/// Colours shared by the exporter and the Qt view, "#rrggbb".
struct NodeColors {
    const char* fill;
    const char* stroke;
    const char* text;
};
NodeColors nodeColors(NodeKind kind, Phase phase, NodeState state);
const char* clusterFill(Phase phase);

const char* graphPartName(GraphPart part);
/// "forward", "backward", "train-step"; nullopt for anything else.
std::optional<GraphPart> parseGraphPart(std::string_view text);

} // namespace gradstep::display
