// The graph view's overview: the whole scene scaled into a corner with the viewport's rectangle
// on it. A click or drag centres the main view there. The picture is re-rendered when the
// layout or the states change (coalesced), the rectangle on every scroll or zoom. Hidden while
// the whole graph fits in the view. SPDX-License-Identifier: MIT
#pragma once

#include <QImage>
#include <QTimer>
#include <QWidget>

namespace gradstep::views {

class GraphView;

class GraphOverview : public QWidget {
    Q_OBJECT
public:
    explicit GraphOverview(GraphView* view);

    /// Re-renders the scene soon (several calls in a row render once).
    void sceneChanged();
    /// The viewport moved or zoomed: redraws the rectangle, shows or hides the overview.
    void viewChanged();
    /// View > Graph Overview: false hides the map even when the graph does not fit.
    void setWanted(bool wanted);
    /// The overview point (widget coordinates) of a scene point, and back.
    QPointF toOverview(const QPointF& scenePoint) const;
    QPointF toScene(const QPointF& overviewPoint) const;
    /// The viewport's rectangle in overview coordinates.
    QRectF viewportRect() const;
    /// Renders now (tests, screenshots).
    void renderNow();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    QRectF imageRect() const;

    GraphView* m_view;
    QImage m_image;
    QRectF m_sceneRect;
    QTimer m_render;
    bool m_wanted = true;
};

} // namespace gradstep::views
