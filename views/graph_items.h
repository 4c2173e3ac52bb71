// The scene items of the graph view: a node box (title and output shape, coloured by phase and
// state with core/display's colours, shared with the exporter) and the palette they share.
// SPDX-License-Identifier: MIT
#pragma once

#include "views/graph_picture.h"

#include <QColor>
#include <QGraphicsObject>
#include <optional>

namespace gradstep::views {

struct NodeStyle {
    QColor fill;
    QColor stroke;
    QColor text;
};

/// display::nodeColors in a light palette (forward blue, backward orange, update green; pending
/// pale, current saturated, executed in between); a dark palette blends the same hues.
NodeStyle nodeStyle(PictureKind kind, Phase phase, NodeState state, bool dark);
QColor clusterColor(Phase phase, bool dark);

class NodeItem : public QGraphicsObject {
    Q_OBJECT
public:
    NodeItem(int index, const PictureNode& node, bool dark);
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    int index() const { return m_index; }
    void setState(NodeState state);
    NodeState state() const { return m_state; }
    /// Colours of the caller's instead of the phase's and state's (a migration comparison
    /// colours a pair by its difference); nullopt: the usual ones.
    void setStyleOverride(std::optional<NodeStyle> style);
    PictureKind kind() const { return m_kind; }
    const QString& cellPath() const { return m_cellPath; }

private:
    int m_index;
    QString m_title;
    QString m_detail;
    QString m_tangent;
    QString m_cellPath;
    PictureKind m_kind;
    Phase m_phase;
    NodeState m_state;
    std::optional<NodeStyle> m_override;
    QSizeF m_size;
    bool m_dark;
    bool m_halfPrecision;
};

} // namespace gradstep::views
