// Draws a cell's QList<double> (kSparklineRole) as a small line chart: min to max of the finite
// values scaled to the cell, the last point dotted. NaNs break the line. SPDX-License-Identifier: MIT
#pragma once

#include <QStyledItemDelegate>

namespace gradstep::views {

inline constexpr int kSparklineRole = Qt::UserRole + 7;

class SparklineDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace gradstep::views
