// SPDX-License-Identifier: MIT
#include "views/tensor_inspector.h"

#include "views/gradients_table.h"
#include "views/heatmap_widget.h"
#include "views/histogram_widget.h"
#include "views/tensor_slice.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QGroupBox>
#include <QVBoxLayout>

namespace gradstep::views {

namespace {

const char* kStatNames[] = {"shape", "dtype", "count", "min", "max", "mean", "std", "l2 norm",
                            "max |x|", "zeros", "nan / inf"};

} // namespace

TensorInspector::TensorInspector(QWidget* parent) : QWidget(parent)
{
    m_heading = new QLabel;
    m_heading->setWordWrap(true);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_heading->font();
    bold.setBold(true);
    m_heading->setFont(bold);
    m_chainBox = new QGroupBox(tr("Chain rule"));
    m_chainRule = new ChainRuleView;
    auto* chainLayout = new QVBoxLayout(m_chainBox);
    chainLayout->setContentsMargins(6, 2, 6, 4);
    chainLayout->addWidget(m_chainRule);
    m_chainBox->hide();
    m_choice = new QComboBox;
    m_stats = new QFormLayout;
    m_stats->setLabelAlignment(Qt::AlignRight);
    m_stats->setVerticalSpacing(1);
    for (const char* name : kStatNames) {
        auto* value = new QLabel;
        value->setObjectName(QString::fromLatin1(name));
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_stats->addRow(QString::fromLatin1(name) + QLatin1Char(':'), value);
    }
    m_sliceBar = new QHBoxLayout;
    m_sliceNote = new QLabel;
    m_values = new QTableWidget;
    m_values->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_values->horizontalHeader()->setDefaultSectionSize(m_values->fontMetrics().horizontalAdvance(QStringLiteral("-9.999e-99")) + 12);
    m_values->verticalHeader()->setDefaultSectionSize(m_values->fontMetrics().height() + 4);
    m_tangentValues = new QTableWidget;
    m_tangentValues->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tangentValues->horizontalHeader()->setDefaultSectionSize(m_values->horizontalHeader()->defaultSectionSize());
    m_tangentValues->verticalHeader()->setDefaultSectionSize(m_values->verticalHeader()->defaultSectionSize());
    m_tangentValues->setToolTip(tr("Forward mode (ops.jvp): the tangent dx of this tensor, the same slice as Values"));
    m_heatmap = new HeatmapWidget;
    m_histogram = new HistogramWidget;
    m_tabs = new QTabWidget;
    m_tabs->addTab(m_values, tr("Values"));
    m_tabs->addTab(m_heatmap, tr("Heatmap"));
    m_tabs->addTab(m_histogram, tr("Histogram"));
    m_tabs->addTab(m_tangentValues, tr("Tangent"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_heading);
    layout->addWidget(m_chainBox);
    layout->addWidget(m_choice);
    layout->addLayout(m_stats);
    auto* sliceRow = new QHBoxLayout;
    sliceRow->addWidget(new QLabel(tr("slice:")));
    sliceRow->addLayout(m_sliceBar);
    sliceRow->addWidget(m_sliceNote, 1);
    layout->addLayout(sliceRow);
    layout->addWidget(m_tabs, 1);
    connect(m_choice, &QComboBox::currentIndexChanged, this, [this](int i) { showTensor(i); });
    clear();
}

void TensorInspector::setChainRule(std::optional<ChainRule> rule)
{
    m_chainBox->setVisible(rule.has_value());
    m_chainRule->setRule(std::move(rule));
}

bool TensorInspector::chainRuleShown() const
{
    return !m_chainBox->isHidden();
}

void TensorInspector::clear()
{
    setTensors(tr("No node selected"), {});
}

void TensorInspector::setTensors(const QString& heading, std::vector<InspectedTensor> tensors)
{
    const QString previous = m_choice->currentText();
    m_tensors = std::move(tensors);
    m_heading->setText(heading);
    const QSignalBlocker block(m_choice);
    m_choice->clear();
    for (const InspectedTensor& t : m_tensors)
        m_choice->addItem(t.label);
    const int keep = m_choice->findText(previous);
    m_choice->setCurrentIndex(keep >= 0 ? keep : (m_tensors.empty() ? -1 : 0));
    m_choice->setEnabled(!m_tensors.empty());
    showTensor(m_choice->currentIndex());
}

int TensorInspector::currentIndex() const
{
    return m_choice->currentIndex();
}

void TensorInspector::setCurrentIndex(int index)
{
    m_choice->setCurrentIndex(index);
}

bool TensorInspector::tangentTabEnabled() const
{
    return m_tabs->isTabEnabled(m_tabs->indexOf(m_tangentValues));
}

QString TensorInspector::statText(const QString& name) const
{
    const auto* label = findChild<QLabel*>(name);
    return label ? label->text() : QString();
}

void TensorInspector::showTensor(int index)
{
    const bool valid = index >= 0 && std::size_t(index) < m_tensors.size();
    const debug::TensorStats stats = valid ? m_tensors[std::size_t(index)].stats : debug::TensorStats{};
    const auto set = [this](const char* name, const QString& text) {
        findChild<QLabel*>(QString::fromLatin1(name))->setText(text);
    };
    set("shape", valid ? QString::fromStdString(stats.shape.toString()) : QString());
    set("dtype", valid ? QString::fromUtf8(dtypeName(stats.dtype).data(), qsizetype(dtypeName(stats.dtype).size())) : QString());
    set("count", valid ? QString::number(stats.count) : QString());
    set("min", valid ? formatNumber(stats.min) : QString());
    set("max", valid ? formatNumber(stats.max) : QString());
    set("mean", valid ? formatNumber(stats.mean) : QString());
    set("std", valid ? formatNumber(stats.std) : QString());
    set("l2 norm", valid ? formatNumber(stats.l2Norm) : QString());
    set("max |x|", valid ? formatNumber(stats.maxAbs) : QString());
    set("zeros", valid ? QStringLiteral("%1 (%2%)").arg(stats.zeroCount).arg(100.0 * stats.zeroShare(), 0, 'f', 1) : QString());
    set("nan / inf", valid ? QStringLiteral("%1 / %2").arg(stats.nanCount).arg(stats.infCount()) : QString());
    m_histogram->setStats(stats);
    rebuildSliceControls(valid ? stats.shape : Shape{});
    showSlice();
}

void TensorInspector::rebuildSliceControls(const Shape& shape)
{
    for (QSpinBox* box : m_sliceIndices)
        delete box;
    m_sliceIndices.clear();
    for (int axis = 0; axis < leadingAxes(shape); ++axis) {
        auto* box = new QSpinBox;
        box->setRange(0, int(std::max<std::int64_t>(shape[axis] - 1, 0)));
        box->setToolTip(tr("index along axis %1").arg(axis));
        connect(box, &QSpinBox::valueChanged, this, [this] { showSlice(); });
        m_sliceBar->addWidget(box);
        m_sliceIndices.push_back(box);
    }
}

void TensorInspector::fillTable(QTableWidget* table, const Slice2D& slice)
{
    const int rows = int(std::min<std::int64_t>(slice.rows, kMaxCells));
    const int cols = int(std::min<std::int64_t>(slice.cols, kMaxCells));
    table->clear();
    table->setRowCount(rows);
    table->setColumnCount(cols);
    QStringList rowLabels, colLabels;
    for (int r = 0; r < rows; ++r)
        rowLabels << QString::number(r);
    for (int c = 0; c < cols; ++c)
        colLabels << QString::number(c);
    table->setVerticalHeaderLabels(rowLabels);
    table->setHorizontalHeaderLabels(colLabels);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            auto* item = new QTableWidgetItem(formatNumber(slice.at(r, c)));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table->setItem(r, c, item);
        }
}

void TensorInspector::showSlice()
{
    const int index = m_choice->currentIndex();
    const bool valid = index >= 0 && std::size_t(index) < m_tensors.size();
    const Tensor snapshot = valid ? m_tensors[std::size_t(index)].snapshot : Tensor();
    std::vector<std::int64_t> leading;
    for (QSpinBox* box : m_sliceIndices)
        leading.push_back(box->value());
    const Slice2D slice = sliceOf(snapshot, leading);
    m_heatmap->setSlice(slice);
    fillTable(m_values, slice);
    const bool tangent = valid && m_tensors[std::size_t(index)].hasTangent;
    m_tabs->setTabEnabled(m_tabs->indexOf(m_tangentValues), tangent);
    if (!tangent && m_tabs->currentWidget() == m_tangentValues)
        m_tabs->setCurrentWidget(m_values);
    fillTable(m_tangentValues, tangent ? sliceOf(m_tensors[std::size_t(index)].tangent, leading) : Slice2D{});
    const int rows = int(std::min<std::int64_t>(slice.rows, kMaxCells));
    const int cols = int(std::min<std::int64_t>(slice.cols, kMaxCells));
    QString note;
    if (valid && !snapshot.defined())
        note = tr("no snapshot kept: stats only");
    else if (slice.rows > kMaxCells || slice.cols > kMaxCells)
        note = tr("%1 x %2, first %3 x %4 shown").arg(slice.rows).arg(slice.cols).arg(rows).arg(cols);
    else if (valid)
        note = tr("%1 x %2").arg(slice.rows).arg(slice.cols);
    m_sliceNote->setText(note);
}

} // namespace gradstep::views
