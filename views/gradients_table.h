// Every parameter's gradient at the pause, as a sortable table: name, shape, gradient norm, mean,
// max |g|, the gradient-to-weight norm ratio and a sparkline of the norm over the steps so far.
// Selecting a row names the parameter.
// SPDX-License-Identifier: MIT
#pragma once

#include "session/gradient_rows.h"

#include <QTableView>
#include <limits>
#include <map>
#include <string>
#include <vector>

class QStandardItemModel;
class QSortFilterProxyModel;

namespace gradstep::views {

using GradientRow = debug::GradientRow;

class GradientsTable : public QTableView {
    Q_OBJECT
public:
    enum Column { Name, Shape, Norm, Mean, MaxAbs, Ratio, History, ColumnCount };
    /// A parameter's gradient norm per step, oldest first (NaN: no gradient that step).
    using NormHistory = std::map<QString, std::vector<double>>;

    explicit GradientsTable(QWidget* parent = nullptr);
    /// Replaces the rows, keeping the sort order and the selected parameter.
    void setRows(const std::vector<GradientRow>& rows);
    int rowCount() const;
    /// The number shown in (row, column) of the source order (NaN for text or empty cells).
    double value(int row, Column column) const;
    QString text(int row, Column column) const;
    void selectParameter(const QString& name);
    /// The sparklines: kept across setRows, shown for the parameters listed.
    void setNormHistory(NormHistory history);
    /// The norms drawn in `row`'s sparkline (source order).
    std::vector<double> normHistory(int row) const;

signals:
    void parameterSelected(const QString& name);

private:
    QStandardItemModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    NormHistory m_history;
};

/// "1.234e-05", "0.01234", "12.35", "nan": four significant digits.
QString formatNumber(double value);

} // namespace gradstep::views
