// SPDX-License-Identifier: MIT
#include "views/graph_overview.h"

#include "views/graph_view.h"

#include <QGraphicsScene>
#include <QMouseEvent>
#include <QPainter>

namespace gradstep::views {

namespace {

constexpr int kMargin = 4;

} // namespace

GraphOverview::GraphOverview(GraphView* view) : QWidget(view), m_view(view)
{
    setObjectName(QStringLiteral("graphOverview"));
    setCursor(Qt::CrossCursor);
    setToolTip(tr("Overview: click or drag to move the view"));
    m_render.setSingleShot(true);
    m_render.setInterval(120);
    connect(&m_render, &QTimer::timeout, this, [this] { renderNow(); });
    hide();
}

void GraphOverview::sceneChanged()
{
    m_render.start();
}

void GraphOverview::renderNow()
{
    m_render.stop();
    QGraphicsScene* scene = m_view->scene();
    m_sceneRect = scene ? scene->sceneRect() : QRectF();
    if (m_sceneRect.isEmpty() || width() <= 2 * kMargin || height() <= 2 * kMargin) {
        m_image = QImage();
        viewChanged();
        return;
    }
    const QSizeF room(width() - 2 * kMargin, height() - 2 * kMargin);
    const QSize size = m_sceneRect.size().scaled(room, Qt::KeepAspectRatio).toSize().expandedTo(QSize(1, 1));
    const qreal dpr = devicePixelRatioF();
    m_image = QImage(size * dpr, QImage::Format_ARGB32_Premultiplied);
    m_image.setDevicePixelRatio(dpr);
    m_image.fill(m_view->palette().color(QPalette::Base));
    {
        QPainter painter(&m_image);
        painter.setRenderHint(QPainter::Antialiasing);
        scene->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), m_sceneRect, Qt::KeepAspectRatio);
    }
    viewChanged();
}

QRectF GraphOverview::imageRect() const
{
    if (m_image.isNull())
        return QRectF();
    const QSizeF size = m_image.deviceIndependentSize();
    return QRectF(QPointF((width() - size.width()) / 2.0, (height() - size.height()) / 2.0), size);
}

QPointF GraphOverview::toOverview(const QPointF& scenePoint) const
{
    const QRectF image = imageRect();
    if (image.isEmpty() || m_sceneRect.isEmpty())
        return QPointF();
    return image.topLeft() + QPointF((scenePoint.x() - m_sceneRect.left()) * image.width() / m_sceneRect.width(),
                                     (scenePoint.y() - m_sceneRect.top()) * image.height() / m_sceneRect.height());
}

QPointF GraphOverview::toScene(const QPointF& overviewPoint) const
{
    const QRectF image = imageRect();
    if (image.isEmpty() || m_sceneRect.isEmpty())
        return QPointF();
    return m_sceneRect.topLeft() + QPointF((overviewPoint.x() - image.left()) * m_sceneRect.width() / image.width(),
                                           (overviewPoint.y() - image.top()) * m_sceneRect.height() / image.height());
}

QRectF GraphOverview::viewportRect() const
{
    const QRectF visible = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
    return QRectF(toOverview(visible.topLeft()), toOverview(visible.bottomRight())).intersected(imageRect());
}

void GraphOverview::setWanted(bool wanted)
{
    m_wanted = wanted;
    viewChanged();
}

void GraphOverview::viewChanged()
{
    const QRectF visible = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
    // A graph that fits whole needs no map of itself.
    const bool needed = m_wanted && !m_image.isNull() && !visible.adjusted(-1, -1, 1, 1).contains(m_sceneRect);
    setVisible(needed);
    if (needed) {
        raise();
        update();
    }
}

void GraphOverview::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette pal = m_view->palette();
    painter.fillRect(rect(), pal.color(QPalette::Base));
    painter.setPen(QPen(pal.color(QPalette::Mid), 1));
    painter.drawRect(rect().adjusted(0, 0, -1, -1));
    if (m_image.isNull())
        return;
    painter.drawImage(imageRect().topLeft(), m_image);
    const QRectF shown = viewportRect();
    const QColor accent("#8e24aa");
    QColor fill = accent;
    fill.setAlpha(40);
    painter.setBrush(fill);
    painter.setPen(QPen(accent, 1.5));
    painter.drawRect(shown.adjusted(0.5, 0.5, -0.5, -0.5));
}

void GraphOverview::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || m_image.isNull())
        return;
    m_view->centerOn(toScene(event->position()));
    event->accept();
}

void GraphOverview::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton) || m_image.isNull())
        return;
    m_view->centerOn(toScene(event->position()));
    event->accept();
}

} // namespace gradstep::views
