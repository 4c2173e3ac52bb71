// A 2-D slice as colours: a diverging blue-white-red map symmetric around zero (or a sequential
// one when all values share a sign), NaN magenta, +-Inf black, with a colour scale beside it
// labelled with its ends (and 0 for the diverging map); hover shows the value.
// SPDX-License-Identifier: MIT
#pragma once

#include "views/tensor_slice.h"

#include <QImage>
#include <utility>
#include <QWidget>

namespace gradstep::views {

class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapWidget(QWidget* parent = nullptr);
    void setSlice(const Slice2D& slice);
    const QImage& image() const { return m_image; }
    /// The values at the colour scale's bottom and top (NaN without finite values).
    std::pair<double, double> scaleRange() const;
    /// Where the colour scale's bar is drawn (empty without values).
    QRect scaleBar() const;
    QSize sizeHint() const override { return {220, 220}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    QRect target() const;
    int scaleWidth() const;

    Slice2D m_slice;
    QImage m_image;
    double m_low = 0.0, m_high = 0.0; ///< the finite values' range
};

/// The colour of `value` in a map over [low, high].
QColor heatColor(double value, double low, double high);

} // namespace gradstep::views
