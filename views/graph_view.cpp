// SPDX-License-Identifier: MIT
#include "views/graph_view.h"

#include "views/graph_items.h"

#include <QGraphicsPathItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QPainterPath>
#include <QWheelEvent>
#include <cmath>

namespace gradstep::views {

namespace {

QPainterPath edgePath(const PictureEdge& edge)
{
    QPainterPath path;
    if (edge.points.empty())
        return path;
    path.moveTo(edge.points.front());
    for (std::size_t i = 1; i + 2 < edge.points.size(); i += 3)
        path.cubicTo(edge.points[i], edge.points[i + 1], edge.points[i + 2]);
    path.lineTo(edge.arrowTip);
    return path;
}

QPolygonF arrowHead(const QPointF& from, const QPointF& tip)
{
    const double angle = std::atan2(tip.y() - from.y(), tip.x() - from.x());
    const double size = 7.0;
    return QPolygonF({tip, tip - QPointF(std::cos(angle - 0.45) * size, std::sin(angle - 0.45) * size),
                      tip - QPointF(std::cos(angle + 0.45) * size, std::sin(angle + 0.45) * size)});
}

} // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent)
{
    setScene(new QGraphicsScene(this));
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    m_dark = palette().color(QPalette::Base).lightness() < 128;
    connect(scene(), &QGraphicsScene::selectionChanged, this, [this] {
        const auto selected = scene()->selectedItems();
        if (selected.size() == 1)
            if (auto* node = dynamic_cast<NodeItem*>(selected.front()))
                emit nodeActivated(node->index());
    });
}

void GraphView::setPicture(GraphPicture picture, bool fit)
{
    m_picture = std::move(picture);
    m_items.clear();
    scene()->clear();
    const QColor ink = m_dark ? QColor(200, 200, 200) : QColor(60, 60, 60);
    for (const PictureCluster& c : m_picture.clusters) {
        auto* rect = scene()->addRect(c.box, QPen(QColor(150, 150, 150), 1), clusterColor(c.phase, m_dark));
        rect->setZValue(0);
        auto* title = scene()->addSimpleText(c.title);
        title->setBrush(ink);
        QFont font = title->font();
        font.setPointSizeF(8.5);
        font.setItalic(true);
        title->setFont(font);
        title->setPos(c.box.topLeft() + QPointF(6, 2));
        title->setZValue(1);
    }
    for (const PictureEdge& e : m_picture.edges) {
        QPen pen(e.crossLink ? QColor(160, 120, 200) : ink, e.crossLink ? 1.0 : 1.3);
        if (e.crossLink)
            pen.setStyle(Qt::DashLine);
        auto* path = scene()->addPath(edgePath(e), pen);
        path->setZValue(1);
        const QPointF before = e.points.empty() ? e.arrowTip : e.points.back();
        auto* head = scene()->addPolygon(arrowHead(before == e.arrowTip ? before - QPointF(0, 1) : before, e.arrowTip),
                                         QPen(pen.color(), 1), pen.color());
        head->setZValue(1);
    }
    for (std::size_t i = 0; i < m_picture.nodes.size(); ++i) {
        auto* item = new NodeItem(int(i), m_picture.nodes[i], m_dark);
        scene()->addItem(item);
        m_items.push_back(item);
    }
    scene()->setSceneRect(m_picture.bounds);
    if (fit)
        fitAll();
}

void GraphView::updateStates(const GraphPicture& states)
{
    for (std::size_t i = 0; i < m_items.size() && i < states.nodes.size(); ++i) {
        m_picture.nodes[i].state = states.nodes[i].state;
        m_picture.nodes[i].records = states.nodes[i].records;
        m_items[i]->setState(states.nodes[i].state);
    }
    if (const int current = currentNode(); current >= 0)
        ensureVisible(m_items[std::size_t(current)], 40, 40);
}

NodeState GraphView::nodeState(int index) const
{
    return m_items.at(std::size_t(index))->state();
}

int GraphView::currentNode() const
{
    for (std::size_t i = 0; i < m_items.size(); ++i)
        if (m_items[i]->state() == NodeState::Current)
            return int(i);
    return -1;
}

void GraphView::selectNode(int index)
{
    const QSignalBlocker block(scene());
    scene()->clearSelection();
    if (index < 0 || std::size_t(index) >= m_items.size())
        return;
    m_items[std::size_t(index)]->setSelected(true);
    ensureVisible(m_items[std::size_t(index)], 40, 40);
}

void GraphView::zoomBy(double factor)
{
    const double next = zoom() * factor;
    if (next < 0.05 || next > 8.0)
        return;
    scale(factor, factor);
}

void GraphView::fitAll()
{
    if (m_picture.nodes.empty())
        return;
    fitInView(scene()->sceneRect(), Qt::KeepAspectRatio);
    // A small graph is not blown up beyond its natural size.
    if (zoom() > 1.0) {
        resetTransform();
        centerOn(scene()->sceneRect().center());
    }
    // Tall graphs fitted whole would be unreadable: keep labels legible and show the top.
    if (zoom() < 0.55) {
        resetTransform();
        scale(0.55, 0.55);
        centerOn(scene()->sceneRect().center().x(), scene()->sceneRect().top());
    }
}

double GraphView::zoom() const
{
    return transform().m11();
}

void GraphView::wheelEvent(QWheelEvent* event)
{
    zoomBy(std::pow(1.0015, event->angleDelta().y()));
    event->accept();
}

void GraphView::drawBackground(QPainter* painter, const QRectF& rect)
{
    painter->fillRect(rect, palette().color(QPalette::Base));
}

} // namespace gradstep::views
