// The scene items of the graph view: a node box (title and output shape, coloured by phase and
// state) and the palette they share. SPDX-License-Identifier: MIT
#pragma once

#include "views/graph_picture.h"

#include <QColor>
#include <QGraphicsObject>

namespace gradstep::views {

struct NodeStyle {
    QColor fill;
    QColor stroke;
    QColor text;
};

/// Forward blue, backward orange, update green; pending nodes pale with grey text, the current
/// node saturated with a thick border, executed nodes in between.
NodeStyle nodeStyle(Phase phase, NodeState state, bool dark);
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

private:
    int m_index;
    QString m_title;
    QString m_detail;
    Phase m_phase;
    NodeState m_state;
    QSizeF m_size;
    bool m_dark;
};

} // namespace gradstep::views
