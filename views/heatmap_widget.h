// A 2-D slice as colours: a diverging blue-white-red map symmetric around zero (or a sequential
// one when all values share a sign), NaN magenta, +-Inf black; hover shows the value.
// SPDX-License-Identifier: MIT
#pragma once

#include "views/tensor_slice.h"

#include <QImage>
#include <QWidget>

namespace gradstep::views {

class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapWidget(QWidget* parent = nullptr);
    void setSlice(const Slice2D& slice);
    const QImage& image() const { return m_image; }
    QSize sizeHint() const override { return {220, 220}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    QRect target() const;

    Slice2D m_slice;
    QImage m_image;
};

/// The colour of `value` in a map over [low, high].
QColor heatColor(double value, double low, double high);

} // namespace gradstep::views
