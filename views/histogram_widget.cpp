// SPDX-License-Identifier: MIT
#include "views/histogram_widget.h"

#include "views/gradients_table.h"

#include <QPainter>
#include <algorithm>

namespace gradstep::views {

HistogramWidget::HistogramWidget(QWidget* parent) : QWidget(parent)
{
    setMinimumHeight(90);
}

void HistogramWidget::setStats(const debug::TensorStats& stats)
{
    m_stats = stats;
    // Stats computed without a histogram have all bins zero: nothing to draw then.
    m_has = stats.finiteCount > 0
        && std::any_of(stats.bins.begin(), stats.bins.end(), [](std::int64_t n) { return n > 0; });
    update();
}

void HistogramWidget::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QFontMetrics fm = fontMetrics();
    if (!m_has) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("no histogram"));
        return;
    }
    const QRect plot = rect().adjusted(4, 4, -4, -fm.height() - 6);
    const std::int64_t top = std::max<std::int64_t>(1, *std::max_element(m_stats.bins.begin(), m_stats.bins.end()));
    const double barWidth = double(plot.width()) / debug::TensorStats::kBins;
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(70, 130, 180));
    for (int i = 0; i < debug::TensorStats::kBins; ++i) {
        const double h = double(plot.height()) * double(m_stats.bins[std::size_t(i)]) / double(top);
        painter.drawRect(QRectF(plot.left() + i * barWidth + 0.5, plot.bottom() - h, std::max(barWidth - 1.0, 1.0), h));
    }
    painter.setPen(palette().color(QPalette::Text));
    painter.drawLine(plot.bottomLeft(), plot.bottomRight());
    const QRect labels(plot.left(), plot.bottom() + 3, plot.width(), fm.height());
    painter.drawText(labels, Qt::AlignLeft, formatNumber(m_stats.edges.front()));
    painter.drawText(labels, Qt::AlignRight, formatNumber(m_stats.edges.back()));
    if (m_stats.nonFiniteCount() > 0)
        painter.drawText(labels, Qt::AlignHCenter,
                         tr("nan %1  inf %2").arg(m_stats.nanCount).arg(m_stats.infCount()));
    else
        painter.drawText(labels, Qt::AlignHCenter, tr("max bin %1").arg(top));
}

} // namespace gradstep::views
