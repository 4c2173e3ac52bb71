// The computation graph as interactive scene items: nodes, edges (cross links dashed), Cell
// clusters; zoom with the wheel (around the cursor), pan by dragging, fit, and the current node
// kept in view. A picture is drawn once per step; a pause only recolours it.
// SPDX-License-Identifier: MIT
#pragma once

#include "views/graph_picture.h"

#include <QGraphicsView>
#include <vector>

namespace gradstep::views {

class NodeItem;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);

    /// Replaces the scene with `picture` and fits it when `fit`.
    void setPicture(GraphPicture picture, bool fit = true);
    const GraphPicture& picture() const { return m_picture; }
    /// Recolours the nodes after applyStates and scrolls the current node into view.
    void updateStates(const GraphPicture& states);
    NodeState nodeState(int index) const;
    int currentNode() const;
    void selectNode(int index);

    void zoomBy(double factor);
    void fitAll();
    double zoom() const;

signals:
    /// A node was clicked: its index in picture().
    void nodeActivated(int index);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;

private:
    GraphPicture m_picture;
    std::vector<NodeItem*> m_items;
    bool m_dark = false;
};

} // namespace gradstep::views
