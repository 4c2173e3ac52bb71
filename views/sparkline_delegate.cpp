// SPDX-License-Identifier: MIT
#include "views/sparkline_delegate.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace gradstep::views {

void SparklineDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QStyleOptionViewItem base = option;
    initStyleOption(&base, index);
    base.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &base, painter, widget);

    const QList<double> values = index.data(kSparklineRole).value<QList<double>>();
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    for (double v : values)
        if (std::isfinite(v)) {
            low = std::min(low, v);
            high = std::max(high, v);
        }
    if (!(low <= high))
        return;
    const QRectF area = QRectF(option.rect).adjusted(6, 4, -8, -4);
    const double span = high > low ? high - low : 1.0;
    const double dx = values.size() > 1 ? area.width() / double(values.size() - 1) : 0.0;
    const auto at = [&](qsizetype i) {
        const double y = high > low ? (values[i] - low) / span : 0.5;
        return QPointF(area.left() + dx * double(i), area.bottom() - y * area.height());
    };
    QPainterPath path;
    bool drawing = false;
    for (qsizetype i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values[i])) {
            drawing = false;
            continue;
        }
        if (drawing)
            path.lineTo(at(i));
        else
            path.moveTo(at(i));
        drawing = true;
    }
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const bool selected = option.state & QStyle::State_Selected;
    const QColor ink = selected ? option.palette.color(QPalette::HighlightedText) : QColor("#1e6fd9");
    painter->setPen(QPen(ink, 1.5));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(path);
    if (std::isfinite(values.back())) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(selected ? ink : QColor("#e0701b"));
        painter->drawEllipse(at(values.size() - 1), 2.6, 2.6);
    }
    painter->restore();
}

QSize SparklineDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    return QStyledItemDelegate::sizeHint(option, index).expandedTo(QSize(120, 22));
}

} // namespace gradstep::views
