// What the graph view draws: node boxes, edge curves and cluster rectangles in scene points
// (y down), with each node's phase, state and records, converted from a core/display layout
// (Graphviz on the LayoutEngine's worker). No widget here. SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/identity.h"
#include "debug/node_record.h"
#include "display/layout.h"

#include <QPointF>
#include <QRectF>
#include <QString>
#include <cstdint>
#include <span>
#include <vector>

namespace gradstep::views {

using NodeState = display::NodeState;
using PictureKind = display::NodeKind;

struct PictureNode {
    QString key;    ///< stable across steps: phase letter, full name, occurrence
    QString title;  ///< "Conv2D", a collapsed Cell's name
    QString detail; ///< "[2, 6, 28, 28] f32", "12 ops"
    QString tangent; ///< forward mode: "y 0.841  dy 0.54" (display::DisplayNode::tangent)
    QString tooltip;
    QString cellPath; ///< a collapsed Cell: the cluster path it folds (empty otherwise)
    QString scope;    ///< the cluster path the node sits in
    PictureKind kind = PictureKind::Op;
    Phase phase = Phase::Forward;
    NodeState state = NodeState::Executed;
    bool halfPrecision = false; ///< display::DisplayNode::halfPrecision
    QRectF box;
    std::vector<std::uint64_t> records; ///< record seqs (re-pointed to the current step by states)
};

struct PictureEdge {
    int from = 0;
    int to = 0;
    bool crossLink = false;      ///< backward node -> the forward node it differentiates
    std::vector<QPointF> points; ///< cubic Bezier: p0 c1 c2 p1 ...
    QPointF arrowTip;
};

struct PictureCluster {
    QString title;
    QString path;
    Phase phase = Phase::Forward;
    int depth = 0;
    QRectF box;
};

struct GraphPicture {
    std::vector<PictureNode> nodes;
    std::vector<PictureEdge> edges;
    std::vector<PictureCluster> clusters; ///< outer before inner
    QRectF bounds;

    int findNode(const QString& key) const;
    /// The node that stands for record `seq`, or -1.
    int nodeOfRecord(std::uint64_t seq) const;
};

/// The picture of a finished layout: indices follow layout.graph's nodes, edges and clusters;
/// bounds get a margin around the layout's bounding box.
GraphPicture pictureFromLayout(const display::LayoutResult& layout);

/// States from the records executed so far in the current step (a layout of an earlier step
/// follows the current one by key): Current for `current`, Executed for the others seen,
/// Pending otherwise; each node's records are re-pointed to the current step's seqs.
void applyStates(GraphPicture& picture, const display::DisplayGraph& laidOut,
                 std::span<const debug::RecordPtr> executed, const debug::NodeRecord* current);

} // namespace gradstep::views
