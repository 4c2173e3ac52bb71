// SPDX-License-Identifier: MIT
#include "views/charts_view.h"

#include "views/chart_theme.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPixmap>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QValueAxis>
#include <cmath>
#include <set>

namespace gradstep::views {

namespace {

QChartView* makeChartView(const QString& title)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(160);
    return view;
}

/// Replaces the chart by a new one with `series`; points that a log axis cannot show are left
/// out. A new chart, because axes removed from a chart leave their drawings in its scene.
void fill(QChartView* view, const QPalette& palette, std::vector<QLineSeries*> series, bool log, bool showLegend,
          QLineSeries* right = nullptr)
{
    QChart* old = view->chart();
    auto* chart = new QChart;
    chart->setTitle(old->title());
    chart->legend()->setAlignment(old->legend()->alignment());
    chart->setMargins(old->margins());
    applyChartTheme(chart, palette);
    view->setChart(chart);
    delete old;
    auto* x = new QValueAxis;
    x->setTitleText(QObject::tr("step"));
    x->setLabelFormat(QStringLiteral("%d"));
    QAbstractAxis* y = nullptr;
    if (log) {
        auto* logAxis = new QLogValueAxis;
        logAxis->setLabelFormat(QStringLiteral("%.0e"));
        logAxis->setMinorTickCount(8);
        y = logAxis;
    } else {
        y = new QValueAxis;
    }
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double minX = 1, maxX = 1, minY = HUGE_VAL, maxY = -HUGE_VAL;
    for (QLineSeries* s : series) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        for (const QPointF& p : s->points()) {
            maxX = std::max(maxX, p.x());
            minY = std::min(minY, p.y());
            maxY = std::max(maxY, p.y());
        }
    }
    x->setRange(minX, std::max(maxX, minX + 1));
    // Ticks on whole steps: every step up to ten of them, then a round interval.
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(1);
    x->setTickInterval(std::max(1.0, std::ceil((maxX - minX) / 10.0)));
    if (minY <= maxY) {
        const double pad = log ? 0.0 : std::max((maxY - minY) * 0.05, 1e-12);
        // Norms and losses that are never negative keep the axis at or above zero.
        if (log) {
            // Whole decades, so the axis always has labelled ticks (a loss of 2.2 to 2.3 too).
            const double low = std::pow(10.0, std::floor(std::log10(minY)));
            const double high = std::pow(10.0, std::ceil(std::log10(maxY)));
            y->setRange(low, high > low ? high : low * 10.0);
        } else {
            y->setRange(minY >= 0.0 ? std::max(0.0, minY - pad) : minY - pad, maxY + pad);
        }
    }
    if (right && right->count() > 0) {
        // Its own linear axis on the right: a learning rate is orders of magnitude below a loss.
        auto* axis = new QValueAxis;
        axis->setTitleText(QObject::tr("lr"));
        axis->setLabelFormat(QStringLiteral("%.2g"));
        chart->addAxis(axis, Qt::AlignRight);
        chart->addSeries(right);
        right->attachAxis(x);
        right->attachAxis(axis);
        double low = HUGE_VAL, high = -HUGE_VAL;
        for (const QPointF& p : right->points()) {
            low = std::min(low, p.y());
            high = std::max(high, p.y());
        }
        const double pad = std::max((high - low) * 0.05, std::abs(high) * 0.05 + 1e-12);
        axis->setRange(std::max(0.0, low - pad), high + pad);
        // No legend (the dock is too low for one): the axis wears the series' colour.
        axis->setLabelsColor(right->color());
        axis->setTitleBrush(right->color());
        chart->setTitle(QObject::tr("Loss and learning rate (right) per step"));
    } else {
        delete right;
    }
    chart->legend()->setVisible(showLegend);
}

} // namespace

ChartsView::ChartsView(QWidget* parent) : QWidget(parent)
{
    m_lossView = makeChartView(tr("Loss per step"));
    m_normView = makeChartView(tr("Gradient norm per parameter"));
    m_log = new QCheckBox(tr("Log scale"));
    m_parameters = new QListWidget;
    m_parameters->setMaximumWidth(180);
    auto* side = new QVBoxLayout;
    side->addWidget(m_log);
    side->addWidget(new QLabel(tr("Parameters")));
    side->addWidget(m_parameters, 1);
    auto* charts = new QHBoxLayout; // side by side: the dock under the graph is wide and low
    charts->addWidget(m_lossView, 1);
    charts->addWidget(m_normView, 1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(charts, 1);
    layout->addLayout(side);
    connect(m_log, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(m_parameters, &QListWidget::itemChanged, this, [this] { rebuild(); });
    rebuild();
}

void ChartsView::setHistory(const std::vector<debug::StepSummary>& history)
{
    m_history = history;
    rebuildParameterList();
    rebuild();
}

void ChartsView::setLogScale(bool on)
{
    m_log->setChecked(on);
}

bool ChartsView::logScale() const
{
    return m_log->isChecked();
}

int ChartsView::lossPoints() const
{
    const auto series = m_lossView->chart()->series();
    return series.isEmpty() ? 0 : int(static_cast<QLineSeries*>(series.front())->count());
}

int ChartsView::learningRatePoints() const
{
    const auto series = m_lossView->chart()->series();
    return series.size() < 2 ? 0 : int(static_cast<QLineSeries*>(series.at(1))->count());
}

int ChartsView::gradientSeries() const
{
    return int(m_normView->chart()->series().size());
}

std::pair<double, double> ChartsView::normAxisRange() const
{
    const auto axes = m_normView->chart()->axes(Qt::Vertical);
    if (axes.isEmpty())
        return {0.0, 0.0};
    if (const auto* log = qobject_cast<const QLogValueAxis*>(axes.front()))
        return {log->min(), log->max()};
    const auto* linear = static_cast<const QValueAxis*>(axes.front());
    return {linear->min(), linear->max()};
}

void ChartsView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        rebuild();
}

void ChartsView::rebuildParameterList()
{
    std::set<QString> known;
    for (int i = 0; i < m_parameters->count(); ++i)
        known.insert(m_parameters->item(i)->text());
    const QSignalBlocker block(m_parameters);
    for (const debug::StepSummary& step : m_history)
        for (const debug::ParameterSummary& p : step.parameters) {
            const QString name = QString::fromStdString(p.name);
            if (!known.insert(name).second)
                continue;
            auto* item = new QListWidgetItem(name, m_parameters);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Checked);
        }
}

void ChartsView::rebuild()
{
    const bool log = m_log->isChecked();
    auto* loss = new QLineSeries;
    loss->setName(tr("loss"));
    loss->setPointsVisible(true);
    for (const debug::StepSummary& step : m_history)
        if (std::isfinite(step.loss) && (!log || step.loss > 0))
            loss->append(double(step.step), step.loss);
    auto* rate = new QLineSeries;
    rate->setName(tr("learning rate"));
    for (const debug::StepSummary& step : m_history)
        if (std::isfinite(step.learningRate))
            rate->append(double(step.step), step.learningRate);
    fill(m_lossView, palette(), {loss}, log, false, rate);

    std::vector<QLineSeries*> norms;
    for (int i = 0; i < m_parameters->count(); ++i) {
        const QListWidgetItem* item = m_parameters->item(i);
        if (item->checkState() != Qt::Checked)
            continue;
        auto* series = new QLineSeries;
        series->setName(item->text());
        for (const debug::StepSummary& step : m_history)
            for (const debug::ParameterSummary& p : step.parameters)
                if (QString::fromStdString(p.name) == item->text() && std::isfinite(p.gradientNorm)
                    && (!log || p.gradientNorm > 0))
                    series->append(double(step.step), p.gradientNorm);
        norms.push_back(series);
    }
    // The parameter list doubles as the legend (a chart legend clips beyond a few entries).
    static const QColor kColors[] = {QColor("#1f77b4"), QColor("#ff7f0e"), QColor("#2ca02c"), QColor("#d62728"),
        QColor("#9467bd"), QColor("#8c564b"), QColor("#e377c2"), QColor("#7f7f7f"), QColor("#bcbd22"), QColor("#17becf")};
    const QSignalBlocker block(m_parameters);
    for (int i = 0, shown = 0; i < m_parameters->count(); ++i) {
        QListWidgetItem* item = m_parameters->item(i);
        const QColor color = kColors[std::size_t(i) % std::size(kColors)];
        QPixmap swatch(12, 12);
        swatch.fill(color);
        item->setIcon(QIcon(swatch));
        if (item->checkState() == Qt::Checked)
            norms[std::size_t(shown++)]->setColor(color);
    }
    fill(m_normView, palette(), norms, log, false);
}

} // namespace gradstep::views
