// What the graph view draws: node boxes, edge curves and cluster rectangles in scene points
// (y down), with each node's phase, state and records. Filled from a laid-out display graph, or
// by pictureFromRecords, a plain column layout (forward, backward mirrored beside it, update)
// that needs no Graphviz. No widget here. SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/identity.h"
#include "debug/node_record.h"

#include <QPointF>
#include <QRectF>
#include <QString>
#include <cstdint>
#include <span>
#include <vector>

namespace gradstep::views {

enum class NodeState : std::uint8_t { Pending, Current, Executed };
enum class PictureKind : std::uint8_t { Op, Cell, Parameter, Input };

struct PictureNode {
    QString key;    ///< stable across steps: phase letter, full name, occurrence
    QString title;  ///< "Conv2D"
    QString detail; ///< "[2, 6, 28, 28]"
    QString tooltip;
    PictureKind kind = PictureKind::Op;
    Phase phase = Phase::Forward;
    NodeState state = NodeState::Executed;
    QRectF box;
    std::vector<std::uint64_t> records; ///< record seqs of the step the picture was made from
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
    std::int64_t step = 0;                ///< the step whose records made it

    int findNode(const QString& key) const;
    /// The node that stands for record `seq`, or -1.
    int nodeOfRecord(std::uint64_t seq) const;
};

/// The stable key of a record: "F:LeNet5/conv1/Conv2D#0".
QString recordKey(const debug::NodeRecord& record, int occurrence);

/// A column layout of one step's records: forward top-down, backward beside it at the rows of
/// the forward nodes they differentiate, optimizer updates in a third column; data edges from
/// producer to consumer and dashed cross links; scopes as clusters.
GraphPicture pictureFromRecords(std::span<const debug::RecordPtr> records);

/// States by key from the records executed so far in the current step (a picture made from an
/// earlier step follows the current one): Current for `current`, Executed for the others seen,
/// Pending otherwise. Also re-points each node's records to the current step's seqs.
void applyStates(GraphPicture& picture, std::span<const debug::RecordPtr> executed,
                 const debug::NodeRecord* current);

} // namespace gradstep::views
