// SPDX-License-Identifier: MIT
#include "views/gradients_table.h"

#include "views/sparkline_delegate.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <cmath>

namespace gradstep::views {

namespace {

constexpr int kSortRole = Qt::UserRole + 1;

QStandardItem* numberItem(double value)
{
    auto* item = new QStandardItem(formatNumber(value));
    item->setData(std::isnan(value) ? -std::numeric_limits<double>::infinity() : value, kSortRole);
    item->setData(value, Qt::UserRole);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setEditable(false);
    return item;
}

QStandardItem* textItem(const QString& text)
{
    auto* item = new QStandardItem(text);
    item->setData(text, kSortRole);
    item->setEditable(false);
    return item;
}

} // namespace

QString formatNumber(double value)
{
    if (std::isnan(value))
        return QStringLiteral("nan");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    const double a = std::abs(value);
    if (a != 0.0 && (a < 1e-3 || a >= 1e5))
        return QString::number(value, 'e', 3);
    return QString::number(value, 'g', 4);
}

GradientsTable::GradientsTable(QWidget* parent) : QTableView(parent)
{
    m_model = new QStandardItemModel(0, ColumnCount, this);
    m_model->setHorizontalHeaderLabels(
        {tr("Parameter"), tr("Shape"), tr("Grad norm"), tr("Mean"), tr("Max |g|"), tr("Grad / weight"),
         tr("Norm per step")});
    m_model->horizontalHeaderItem(History)->setToolTip(tr("the gradient norm at the end of each step so far"));
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(kSortRole);
    setModel(m_proxy);
    setSortingEnabled(true);
    sortByColumn(-1, Qt::AscendingOrder);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setAlternatingRowColors(true);
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(Name, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(History, QHeaderView::Fixed);
    setColumnWidth(History, 140);
    setItemDelegateForColumn(History, new SparklineDelegate(this));
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    emit parameterSelected(m_proxy->index(current.row(), Name).data().toString());
            });
}

void GradientsTable::setRows(const std::vector<GradientRow>& rows)
{
    const QModelIndex current = currentIndex();
    const QString selected = current.isValid() ? m_proxy->index(current.row(), Name).data().toString() : QString();
    m_model->setRowCount(0);
    for (const GradientRow& r : rows) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const double norm = r.defined ? r.gradient.l2Norm : nan;
        const double ratio = r.defined && r.weightNorm > 0 ? norm / r.weightNorm : nan;
        QList<QStandardItem*> items{textItem(QString::fromStdString(r.name)),
            textItem(QString::fromStdString(r.gradient.shape.toString())), numberItem(norm),
            numberItem(r.defined ? r.gradient.mean : nan), numberItem(r.defined ? r.gradient.maxAbs : nan),
            numberItem(ratio), textItem(QString())};
        if (!r.defined)
            items[Norm]->setToolTip(tr("the loss does not depend on this parameter"));
        m_model->appendRow(items);
    }
    setNormHistory(std::move(m_history));
    if (!selected.isEmpty())
        selectParameter(selected);
}

void GradientsTable::setNormHistory(NormHistory history)
{
    m_history = std::move(history);
    for (int row = 0; row < m_model->rowCount(); ++row) {
        QStandardItem* item = m_model->item(row, History);
        const auto it = m_history.find(m_model->item(row, Name)->text());
        QList<double> values;
        if (it != m_history.end())
            values = QList<double>(it->second.begin(), it->second.end());
        item->setData(QVariant::fromValue(values), kSparklineRole);
        const double last = values.isEmpty() ? -std::numeric_limits<double>::infinity() : values.back();
        item->setData(std::isnan(last) ? -std::numeric_limits<double>::infinity() : last, kSortRole);
        item->setToolTip(values.isEmpty() ? QString()
                                          : tr("%1 steps, last %2").arg(values.size()).arg(formatNumber(values.back())));
    }
}

std::vector<double> GradientsTable::normHistory(int row) const
{
    const QList<double> values = m_model->index(row, History).data(kSparklineRole).value<QList<double>>();
    return std::vector<double>(values.begin(), values.end());
}

int GradientsTable::rowCount() const
{
    return m_model->rowCount();
}

double GradientsTable::value(int row, Column column) const
{
    const QVariant v = m_model->index(row, column).data(Qt::UserRole);
    return v.isValid() ? v.toDouble() : std::numeric_limits<double>::quiet_NaN();
}

QString GradientsTable::text(int row, Column column) const
{
    return m_model->index(row, column).data().toString();
}

void GradientsTable::selectParameter(const QString& name)
{
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        if (m_proxy->index(row, Name).data().toString() == name) {
            const QSignalBlocker block(selectionModel());
            selectRow(row);
            return;
        }
}

} // namespace gradstep::views
