// SPDX-License-Identifier: MIT
#include "views/heatmap_widget.h"

#include "views/gradients_table.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <cmath>

namespace gradstep::views {

namespace {

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

} // namespace

QColor heatColor(double value, double low, double high)
{
    if (std::isnan(value))
        return QColor(220, 0, 220);
    if (std::isinf(value))
        return Qt::black;
    const QColor blue(33, 102, 172), white(247, 247, 247), red(178, 24, 43);
    if (low < 0 && high > 0) {
        const double bound = std::max(-low, high);
        const double t = std::clamp(value / bound, -1.0, 1.0);
        return t < 0 ? mix(white, blue, -t) : mix(white, red, t);
    }
    const double span = high - low;
    const double t = span > 0 ? std::clamp((value - low) / span, 0.0, 1.0) : 0.5;
    return high <= 0 ? mix(blue, white, t) : mix(white, red, t);
}

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(80, 80);
}

void HeatmapWidget::setSlice(const Slice2D& slice)
{
    m_slice = slice;
    double low = HUGE_VAL, high = -HUGE_VAL;
    for (double v : slice.values)
        if (std::isfinite(v)) {
            low = std::min(low, v);
            high = std::max(high, v);
        }
    m_low = low;
    m_high = high;
    m_image = QImage(int(slice.cols), int(slice.rows), QImage::Format_RGB32);
    for (std::int64_t r = 0; r < slice.rows; ++r)
        for (std::int64_t c = 0; c < slice.cols; ++c)
            m_image.setPixelColor(int(c), int(r), heatColor(slice.at(r, c), low, high));
    update();
}

std::pair<double, double> HeatmapWidget::scaleRange() const
{
    if (!(m_low <= m_high))
        return {std::nan(""), std::nan("")};
    if (m_low < 0 && m_high > 0) { // the diverging map is symmetric around zero
        const double bound = std::max(-m_low, m_high);
        return {-bound, bound};
    }
    return {m_low, m_high};
}

int HeatmapWidget::scaleWidth() const
{
    return 14 + fontMetrics().horizontalAdvance(QStringLiteral("-0.0000e+00"));
}

QRect HeatmapWidget::target() const
{
    if (m_image.isNull())
        return {};
    const QSize room = this->size() - QSize(4 + scaleWidth(), 4);
    const QSize size = m_image.size().scaled(room.expandedTo(QSize(1, 1)), Qt::KeepAspectRatio);
    return QRect(QPoint((width() - scaleWidth() - size.width()) / 2, (height() - size.height()) / 2), size);
}

QRect HeatmapWidget::scaleBar() const
{
    const QRect t = target();
    if (t.isEmpty() || std::isnan(scaleRange().first))
        return {};
    return QRect(t.right() + 8, t.top(), 10, t.height());
}

void HeatmapWidget::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    if (m_image.isNull()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("no values"));
        return;
    }
    painter.drawImage(target(), m_image);
    const QRect bar = scaleBar();
    if (bar.isEmpty())
        return;
    // The bar maps its rows to values exactly as the cells are coloured, top = the high end.
    const auto [bottom, top] = scaleRange();
    for (int y = 0; y < bar.height(); ++y) {
        const double t = bar.height() > 1 ? double(y) / (bar.height() - 1) : 0.0;
        painter.setPen(heatColor(top + (bottom - top) * t, m_low, m_high));
        painter.drawLine(bar.left(), bar.top() + y, bar.right(), bar.top() + y);
    }
    painter.setPen(palette().color(QPalette::Text));
    const int x = bar.right() + 4;
    const QFontMetrics metrics = fontMetrics();
    painter.drawText(x, bar.top() + metrics.ascent(), formatNumber(top));
    painter.drawText(x, bar.bottom(), formatNumber(bottom));
    if (bottom < 0 && top > 0)
        painter.drawText(x, bar.center().y() + metrics.ascent() / 2, QStringLiteral("0"));
}

void HeatmapWidget::mouseMoveEvent(QMouseEvent* event)
{
    const QRect t = target();
    if (!t.contains(event->position().toPoint()) || t.isEmpty())
        return;
    const auto c = std::int64_t((event->position().x() - t.x()) * double(m_slice.cols) / t.width());
    const auto r = std::int64_t((event->position().y() - t.y()) * double(m_slice.rows) / t.height());
    if (r < m_slice.rows && c < m_slice.cols)
        QToolTip::showText(event->globalPosition().toPoint(),
                           QStringLiteral("[%1, %2] = %3").arg(r).arg(c).arg(formatNumber(m_slice.at(r, c))), this);
}

} // namespace gradstep::views
