// SPDX-License-Identifier: MIT
#include "views/graph_items.h"

#include "display/display_graph.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace gradstep::views {

namespace {

QColor hueColor(Phase phase)
{
    switch (phase) {
    case Phase::Forward: return QColor("#1e6fd9");
    case Phase::Backward: return QColor("#e0701b");
    case Phase::Update: return QColor("#2e9d48");
    }
    return Qt::gray;
}

QColor blend(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

} // namespace

NodeStyle nodeStyle(PictureKind kind, Phase phase, NodeState state, bool dark)
{
    if (!dark) {
        const display::NodeColors c = display::nodeColors(kind, phase, state);
        return {QColor(QLatin1String(c.fill)), QColor(QLatin1String(c.stroke)), QColor(QLatin1String(c.text))};
    }
    const QColor hue = hueColor(phase);
    const QColor base = dark ? QColor(40, 42, 46) : Qt::white;
    const QColor ink = dark ? QColor(230, 230, 230) : QColor(25, 25, 25);
    switch (state) {
    case NodeState::Pending:
        return {blend(base, hue, 0.06), blend(base, hue, 0.35), blend(base, ink, 0.55)};
    case NodeState::Current:
        return {hue, dark ? QColor(255, 214, 0) : QColor(20, 20, 20), Qt::white};
    case NodeState::Executed:
        break;
    }
    return {blend(base, hue, dark ? 0.40 : 0.22), hue, ink};
}

QColor clusterColor(Phase phase, bool dark)
{
    if (!dark)
        return QColor(QLatin1String(display::clusterFill(phase)));
    const QColor base = QColor(30, 31, 34);
    return blend(base, hueColor(phase), dark ? 0.10 : 0.05);
}

NodeItem::NodeItem(int index, const PictureNode& node, bool dark)
    : m_index(index), m_title(node.title), m_detail(node.detail), m_tangent(node.tangent), m_cellPath(node.cellPath), m_kind(node.kind),
      m_phase(node.phase), m_state(node.state),
      m_size(node.box.size()), m_dark(dark), m_halfPrecision(node.halfPrecision)
{
    setPos(node.box.topLeft());
    setFlag(ItemIsSelectable);
    setToolTip(node.tooltip);
    setCursor(Qt::PointingHandCursor);
    setZValue(2);
}

QRectF NodeItem::boundingRect() const
{
    return QRectF(QPointF(-6, -6), m_size + QSizeF(12, 12));
}

void NodeItem::setState(NodeState state)
{
    if (state == m_state)
        return;
    m_state = state;
    update();
}

void NodeItem::setStyleOverride(std::optional<NodeStyle> style)
{
    m_override = std::move(style);
    update();
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    const NodeStyle style = m_override ? *m_override : nodeStyle(m_kind, m_phase, m_state, m_dark);
    const QRectF box(QPointF(0, 0), m_size);
    painter->setRenderHint(QPainter::Antialiasing);
    if (isSelected()) { // a halo: found by search, or linked from the source or the gradients
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(142, 36, 170, 95));
        painter->drawRoundedRect(box.adjusted(-5, -5, 5, 5), 9, 9);
    }
    const double border = m_state == NodeState::Current ? 3.0 : isSelected() ? 2.5 : 1.2;
    QPen pen(isSelected() ? QColor("#8e24aa") : style.stroke, border);
    if (m_state == NodeState::Pending && !m_override)
        pen.setStyle(Qt::DashLine);
    painter->setPen(pen);
    painter->setBrush(style.fill);
    painter->drawRoundedRect(box, 6, 6);
    if (m_kind == PictureKind::Cell) // a folded Cell: a second frame says there is more inside
        painter->drawRoundedRect(box.adjusted(3, 3, -3, -3), 4, 4);
    if (m_halfPrecision) { // an amber tab on the left edge: this node computes in half precision
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(m_dark ? "#ffb300" : "#ef6c00"));
        painter->drawRoundedRect(QRectF(box.left() + 1.5, box.top() + 4, 4.5, box.height() - 8), 2, 2);
    }
    // Too small to read (zoomed far out, the overview): the boxes are the picture.
    if (QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform()) < 0.3)
        return;
    QFont font = painter->font();
    font.setPointSizeF(9.5);
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(style.text);
    const QRectF text = box.adjusted(6, 2, -6, -2);
    // With a forward-mode tangent the box has three lines: title, shape, then value and tangent.
    const double lines = m_tangent.isEmpty() ? 2.0 : 3.0;
    const double line = text.height() / lines;
    const QRectF top(text.left(), text.top(), text.width(), line + 1);
    const QRectF bottom(text.left(), text.top() + line, text.width(), line);
    painter->drawText(top, Qt::AlignCenter, QFontMetricsF(font).elidedText(m_title, Qt::ElideRight, text.width()));
    font.setBold(false);
    font.setPointSizeF(8.5);
    painter->setFont(font);
    painter->drawText(bottom, Qt::AlignCenter, QFontMetricsF(font).elidedText(m_detail, Qt::ElideMiddle, text.width()));
    if (!m_tangent.isEmpty()) {
        painter->setPen(m_dark ? QColor("#4dd0e1") : QColor("#00838f"));
        painter->drawText(bottom.translated(0, line), Qt::AlignCenter,
                          QFontMetricsF(font).elidedText(m_tangent, Qt::ElideMiddle, text.width()));
    }
}

} // namespace gradstep::views
