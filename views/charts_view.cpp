// SPDX-License-Identifier: MIT
#include "views/charts_view.h"

#include "views/chart_theme.h"
#include "views/charts_hover.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QToolTip>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPixmap>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <algorithm>
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
          std::vector<QLineSeries*> right = {})
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
    // Ticks on whole steps, as many as the chart's width holds with their labels whole (a label
    // per 70 pixels; a narrow dock elided "10" to "1...").
    const double labels = std::clamp(view->width() / 70.0, 2.0, 10.0);
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(1);
    x->setTickInterval(std::max(1.0, std::ceil((maxX - minX) / labels)));
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
    // Learning rates (one series per run) on their own linear axis on the right: a learning rate
    // is orders of magnitude below a loss. Series without a point are not drawn.
    std::erase_if(right, [](QLineSeries* s) {
        if (s->count() > 0)
            return false;
        delete s;
        return true;
    });
    if (!right.empty()) {
        auto* axis = new QValueAxis;
        axis->setTitleText(QObject::tr("lr"));
        axis->setLabelFormat(QStringLiteral("%.2g"));
        chart->addAxis(axis, Qt::AlignRight);
        double low = HUGE_VAL, high = -HUGE_VAL;
        for (QLineSeries* s : right) {
            chart->addSeries(s);
            s->attachAxis(x);
            s->attachAxis(axis);
            // The legend names the runs once; their dotted learning rates would crowd out the plot.
            for (QLegendMarker* marker : chart->legend()->markers(s))
                marker->setVisible(false);
            for (const QPointF& p : s->points()) {
                low = std::min(low, p.y());
                high = std::max(high, p.y());
            }
        }
        const double pad = std::max((high - low) * 0.05, std::abs(high) * 0.05 + 1e-12);
        axis->setRange(std::max(0.0, low - pad), high + pad);
        // No legend for one run (the dock is too low for one): the axis wears the series' colour.
        if (right.size() == 1) {
            axis->setLabelsColor(right.front()->color());
            axis->setTitleBrush(right.front()->color());
        }
    }
    chart->legend()->setVisible(showLegend);
}

/// TensorBoard's smoothing of a scalar series: an exponential moving average with weight `w`,
/// debiased so the first points are not pulled towards zero.
std::vector<QPointF> smoothed(const std::vector<QPointF>& points, double w)
{
    std::vector<QPointF> out;
    double last = 0.0;
    double weight = 1.0;
    for (const QPointF& p : points) {
        last = last * w + (1.0 - w) * p.y();
        weight *= w;
        out.emplace_back(p.x(), last / (1.0 - weight));
    }
    return out;
}

/// The series for `points`: as they are without smoothing; else the smoothed line in `color` and
/// the raw points faded behind it, as TensorBoard draws them.
std::vector<QLineSeries*> seriesOf(const QString& name, const std::vector<QPointF>& points, double smoothing,
                                   const QColor& color, bool markers)
{
    auto* raw = new QLineSeries;
    raw->setName(name);
    for (const QPointF& p : points)
        raw->append(p);
    raw->setPointsVisible(markers);
    if (color.isValid())
        raw->setColor(color);
    if (smoothing <= 0.0)
        return {raw};
    QColor faded = raw->color();
    faded.setAlphaF(0.25);
    raw->setColor(faded);
    raw->setPointsVisible(false);
    auto* smooth = new QLineSeries;
    smooth->setName(name + QObject::tr(" (smoothed)"));
    for (const QPointF& p : smoothed(points, smoothing))
        smooth->append(p);
    smooth->setColor(color.isValid() ? color : QColor(faded.red(), faded.green(), faded.blue()));
    return {raw, smooth};
}

/// A run's losses as points; what a log axis cannot show (<= 0) and non-finite values left out.
std::vector<QPointF> stepLosses(const std::vector<debug::StepSummary>& steps, bool log)
{
    std::vector<QPointF> points;
    for (const debug::StepSummary& step : steps)
        if (std::isfinite(step.loss) && (!log || step.loss > 0))
            points.emplace_back(double(step.step), step.loss);
    return points;
}

/// What the norm chart draws of a parameter: its gradient norm or its weight norm.
double normOf(const debug::ParameterSummary& p, bool weight)
{
    return weight ? p.weightNorm : p.gradientNorm;
}

/// One parameter's gradient (or weight) norms in a run as points, left out likewise.
std::vector<QPointF> stepNorms(const std::vector<debug::StepSummary>& steps, const QString& name, bool log,
                               bool weight)
{
    std::vector<QPointF> points;
    for (const debug::StepSummary& step : steps)
        for (const debug::ParameterSummary& p : step.parameters) {
            const double v = normOf(p, weight);
            if (QString::fromStdString(p.name) == name && std::isfinite(v) && (!log || v > 0))
                points.emplace_back(double(step.step), v);
        }
    return points;
}

/// A run's learning rates as points (steps that reported one).
QLineSeries* learningRates(const std::vector<debug::StepSummary>& steps, const QString& name, const QColor& color)
{
    auto* rate = new QLineSeries;
    rate->setName(name);
    rate->setColor(color);
    for (const debug::StepSummary& step : steps)
        if (std::isfinite(step.learningRate))
            rate->append(double(step.step), step.learningRate);
    return rate;
}

/// Steps whose loss (or some parameter's gradient or weight norm) is inf or NaN: the curves leave
/// them out.
int nonFiniteSteps(const std::vector<debug::StepSummary>& steps, bool norms, bool weight = false)
{
    return int(std::count_if(steps.begin(), steps.end(), [norms, weight](const debug::StepSummary& step) {
        if (!norms)
            return !std::isfinite(step.loss);
        // A weight norm is NaN also where a saved run did not record it: only NaN weights count.
        return std::any_of(step.parameters.begin(), step.parameters.end(), [weight](const debug::ParameterSummary& p) {
            return weight ? std::isinf(p.weightNorm) || p.weight.nanCount > 0 : !std::isfinite(p.gradientNorm);
        });
    }));
}

/// A title that says what its chart leaves out, so that an overflowing run's empty gradient chart
/// is not read as "no gradients" (on a second line: the panels are narrow).
QString titleWithNonFinite(const QString& title, int count)
{
    return count == 0 ? title : title + QStringLiteral("<br>") + QObject::tr("%n step(s) not finite, not drawn", nullptr, count);
}

/// A value axis's range, linear or log.
std::pair<double, double> axisRange(const QAbstractAxis* axis)
{
    if (const auto* log = qobject_cast<const QLogValueAxis*>(axis))
        return {log->min(), log->max()};
    const auto* linear = static_cast<const QValueAxis*>(axis);
    return {linear->min(), linear->max()};
}

} // namespace

ChartsView::ChartsView(QWidget* parent) : QWidget(parent)
{
    m_lossView = makeChartView(tr("Loss per step"));
    m_normView = makeChartView(tr("Gradient norm per parameter"));
    m_scaleView = makeChartView(tr("Loss scale per step"));
    m_scaleView->hide();
    m_log = new QCheckBox(tr("Log scale"));
    m_sideBySide = new QCheckBox(tr("Panels"));
    m_sideBySide->setToolTip(tr("With two or more runs ticked: a panel per run, on the same scales"));
    m_difference = new QCheckBox(tr("Difference"));
    m_difference->setToolTip(tr("With two runs ticked: the first run's loss and gradient norms minus the "
                                "second's, step by step"));
    m_smoothing = new QDoubleSpinBox;
    m_smoothing->setRange(0.0, 0.99);
    m_smoothing->setSingleStep(0.1);
    m_smoothing->setDecimals(2);
    m_smoothing->setToolTip(tr("Exponential moving average of the curves, as TensorBoard's smoothing: "
                               "0 shows the steps as they are"));
    m_parameters = new QListWidget;
    m_parameters->setMaximumWidth(180);
    m_normKind = new QComboBox;
    m_normKind->addItems({tr("Gradient norms"), tr("Weight norms")});
    m_normKind->setToolTip(tr("What the second chart draws of each ticked parameter, step by step"));
    m_normKind->setMaximumWidth(180);
    m_runList = new QListWidget;
    m_runList->setMaximumWidth(180);
    m_runList->setMaximumHeight(64);
    m_runList->setContextMenuPolicy(Qt::CustomContextMenu);
    m_runList->setToolTip(tr("Runs to draw, overlaid: the current run, the sides of the last comparison over "
                             "several steps (Compare, Steps > 1) and runs saved earlier (right-click to rename "
                             "or delete one)"));
    // Compact: the panel's height is the dock's minimum, and the graph above wants the room.
    auto* side = new QVBoxLayout;
    side->addWidget(m_runList);
    auto* runModes = new QHBoxLayout;
    runModes->addWidget(m_sideBySide);
    runModes->addWidget(m_difference);
    side->addLayout(runModes);
    side->addWidget(m_log);
    auto* smoothingRow = new QHBoxLayout;
    smoothingRow->addWidget(new QLabel(tr("Smoothing")));
    smoothingRow->addWidget(m_smoothing);
    side->addLayout(smoothingRow);
    side->addWidget(m_normKind);
    side->addWidget(new QLabel(tr("Parameters")));
    side->addWidget(m_parameters, 1);
    m_overlayArea = new QWidget;
    auto* charts = new QHBoxLayout(m_overlayArea); // next to each other: the dock under the graph is wide and low
    charts->setContentsMargins(0, 0, 0, 0);
    charts->addWidget(m_lossView, 1);
    charts->addWidget(m_normView, 1);
    charts->addWidget(m_scaleView, 1);
    m_panelArea = new QWidget;
    auto* panels = new QGridLayout(m_panelArea);
    panels->setContentsMargins(0, 0, 0, 0);
    m_panelArea->hide();
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_overlayArea, 1);
    layout->addWidget(m_panelArea, 1);
    layout->addLayout(side);
    connect(m_runList, &QListWidget::itemChanged, this, [this] {
        rebuildParameterList();
        rebuild();
    });
    connect(m_runList, &QListWidget::customContextMenuRequested, this, &ChartsView::showRunMenu);
    rebuildRunList();
    connect(m_log, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(m_difference, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(m_sideBySide, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(m_smoothing, &QDoubleSpinBox::valueChanged, this, [this] { rebuild(); });
    connect(m_parameters, &QListWidget::itemChanged, this, [this] { rebuild(); });
    connect(m_normKind, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    rebuild();
}

void ChartsView::setWeightNorms(bool on)
{
    m_normKind->setCurrentIndex(on ? 1 : 0);
}

bool ChartsView::showsWeightNorms() const
{
    return m_normKind->currentIndex() == 1;
}

int ChartsView::learningRateSeries() const
{
    int n = 0;
    for (QAbstractSeries* s : m_lossView->chart()->series())
        n += s->attachedAxes().size() == 2 && s->attachedAxes().back()->alignment() == Qt::AlignRight ? 1 : 0;
    return n;
}

void ChartsView::setHistory(const std::vector<debug::StepSummary>& history)
{
    m_history = history;
    rebuildParameterList();
    rebuild();
}

namespace {

enum class RunKind { Current, Compared, Saved };
constexpr int kKindRole = Qt::UserRole;
constexpr int kIndexRole = Qt::UserRole + 1;

RunKind kindOf(const QListWidgetItem* item) { return RunKind(item->data(kKindRole).toInt()); }

} // namespace

void ChartsView::rebuildRunList()
{
    std::set<QString> ticked;
    for (int i = 0; i < m_runList->count(); ++i)
        if (m_runList->item(i)->checkState() == Qt::Checked)
            ticked.insert(m_runList->item(i)->text());
    const bool fresh = m_runList->count() == 0;
    const QSignalBlocker block(m_runList);
    m_runList->clear();
    auto add = [&](const QString& label, RunKind kind, int index, bool tick) {
        auto* item = new QListWidgetItem(label, m_runList);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(tick ? Qt::Checked : Qt::Unchecked);
        item->setData(kKindRole, int(kind));
        item->setData(kIndexRole, index);
    };
    add(tr("Current run"), RunKind::Current, 0, fresh || ticked.count(tr("Current run")) > 0);
    for (std::size_t i = 0; i < m_compared.size(); ++i)
        add(m_compared[i].label, RunKind::Compared, int(i), ticked.count(m_compared[i].label) > 0);
    for (std::size_t i = 0; i < m_saved.size(); ++i)
        add(m_saved[i].label, RunKind::Saved, int(i), ticked.count(m_saved[i].label) > 0);
}

void ChartsView::setComparedRuns(std::vector<ChartRun> runs, std::optional<std::int64_t> partsAt)
{
    m_compared = std::move(runs);
    m_partsAt = partsAt;
    rebuildRunList();
    showComparedRuns(!m_compared.empty());
}

void ChartsView::setSavedRuns(std::vector<ChartRun> runs)
{
    m_saved = std::move(runs);
    rebuildRunList();
    rebuildParameterList();
    rebuild();
}

bool ChartsView::showingComparedRuns() const
{
    for (int i = 0; i < m_runList->count(); ++i)
        if (kindOf(m_runList->item(i)) == RunKind::Compared && m_runList->item(i)->checkState() == Qt::Checked)
            return true;
    return false;
}

void ChartsView::showComparedRuns(bool on)
{
    {
        const QSignalBlocker block(m_runList);
        for (int i = 0; i < m_runList->count(); ++i) {
            QListWidgetItem* item = m_runList->item(i);
            if (kindOf(item) == RunKind::Current)
                item->setCheckState(on && !m_compared.empty() ? Qt::Unchecked : Qt::Checked);
            else if (kindOf(item) == RunKind::Compared)
                item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        }
    }
    rebuildParameterList();
    rebuild();
}

void ChartsView::setDifference(bool on)
{
    m_difference->setChecked(on);
}

void ChartsView::setSideBySide(bool on)
{
    m_sideBySide->setChecked(on);
}

int ChartsView::panelCount() const
{
    return m_panelArea->isHidden() ? 0 : int(m_panels.size());
}

std::pair<double, double> ChartsView::panelRange(int panel) const
{
    const auto axes = m_panels.at(std::size_t(panel))->chart()->axes(Qt::Vertical);
    return axes.isEmpty() ? std::pair{0.0, 0.0} : axisRange(axes.front());
}

QString ChartsView::panelTitle(int panel) const
{
    return m_panels.at(std::size_t(panel))->chart()->title();
}

std::vector<std::vector<QChartView*>> ChartsView::shownCharts() const
{
    if (m_panelArea->isHidden())
        return lossScaleShown() ? std::vector<std::vector<QChartView*>>{{m_lossView, m_normView, m_scaleView}}
                                : std::vector<std::vector<QChartView*>>{{m_lossView, m_normView}};
    std::vector<std::vector<QChartView*>> columns;
    for (std::size_t i = 0; i + 1 < m_panels.size(); i += 2)
        columns.push_back({m_panels[i], m_panels[i + 1]});
    return columns;
}

bool ChartsView::showsDifference() const
{
    return m_difference->isChecked() && shownRuns().size() == 2;
}

bool ChartsView::setRunShown(const QString& label, bool shown)
{
    for (int i = 0; i < m_runList->count(); ++i)
        if (m_runList->item(i)->text() == label) {
            m_runList->item(i)->setCheckState(shown ? Qt::Checked : Qt::Unchecked); // rebuilds
            return true;
        }
    return false;
}

QStringList ChartsView::shownRunLabels() const
{
    QStringList labels;
    for (int i = 0; i < m_runList->count(); ++i)
        if (m_runList->item(i)->checkState() == Qt::Checked)
            labels << m_runList->item(i)->text();
    return labels;
}

std::vector<ChartRun> ChartsView::shownRuns() const
{
    std::vector<ChartRun> runs;
    for (int i = 0; i < m_runList->count(); ++i) {
        const QListWidgetItem* item = m_runList->item(i);
        if (item->checkState() != Qt::Checked)
            continue;
        const auto index = std::size_t(item->data(kIndexRole).toInt());
        switch (kindOf(item)) {
        case RunKind::Current: runs.push_back(ChartRun{item->text(), m_history}); break;
        case RunKind::Compared: runs.push_back(m_compared.at(index)); break;
        case RunKind::Saved: runs.push_back(m_saved.at(index)); break;
        }
    }
    return runs;
}

bool ChartsView::onlyCurrentShown() const
{
    const QStringList shown = shownRunLabels();
    return shown.size() == 1 && kindOf(m_runList->item(0)) == RunKind::Current
           && m_runList->item(0)->checkState() == Qt::Checked;
}

void ChartsView::showRunMenu(const QPoint& at)
{
    QListWidgetItem* item = m_runList->itemAt(at);
    if (!item || kindOf(item) != RunKind::Saved)
        return;
    const int index = item->data(kIndexRole).toInt();
    QMenu menu;
    QAction* rename = menu.addAction(tr("Rename..."));
    QAction* remove = menu.addAction(tr("Delete"));
    QAction* chosen = menu.exec(m_runList->viewport()->mapToGlobal(at));
    if (chosen == rename) {
        bool ok = false;
        const QString label = QInputDialog::getText(this, tr("Rename run"), tr("Name:"), QLineEdit::Normal,
                                                    item->text(), &ok);
        if (ok && !label.trimmed().isEmpty())
            emit savedRunRenameRequested(index, label.trimmed());
    } else if (chosen == remove) {
        emit savedRunDeleteRequested(index);
    }
}

std::vector<QPointF> ChartsView::lossPointsOf(const QString& label) const
{
    for (QAbstractSeries* s : m_lossView->chart()->series())
        if (s->name() == label) {
            const QList<QPointF> points = static_cast<const QLineSeries*>(s)->points();
            return std::vector<QPointF>(points.begin(), points.end());
        }
    return {};
}

std::optional<double> ChartsView::divergenceLine() const
{
    for (QAbstractSeries* s : m_lossView->chart()->series())
        if (s->name() == tr("runs part")) {
            const auto* line = static_cast<const QLineSeries*>(s);
            if (line->count() > 0)
                return line->at(0).x();
        }
    return std::nullopt;
}

void ChartsView::setLogScale(bool on)
{
    m_log->setChecked(on);
}

void ChartsView::setSmoothing(double weight)
{
    m_smoothing->setValue(weight);
}

int ChartsView::lossSeries() const
{
    int n = 0;
    for (QAbstractSeries* s : m_lossView->chart()->series())
        n += s->name().startsWith(tr("loss"));
    return n;
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
    return axes.isEmpty() ? std::pair{0.0, 0.0} : axisRange(axes.front());
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
    // The compared runs' parameters follow the current run's: switching back and forth keeps
    // each name's colour and tick.
    std::vector<const debug::StepSummary*> steps;
    for (const debug::StepSummary& step : m_history)
        steps.push_back(&step);
    for (const std::vector<ChartRun>* runs : {&m_compared, &m_saved})
        for (const ChartRun& run : *runs)
            for (const debug::StepSummary& step : run.steps)
                steps.push_back(&step);
    for (const debug::StepSummary* step : steps)
        for (const debug::ParameterSummary& p : step->parameters) {
            const QString name = QString::fromStdString(p.name);
            if (!known.insert(name).second)
                continue;
            auto* item = new QListWidgetItem(name, m_parameters);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Checked);
        }
}

namespace {

const QColor kColors[] = {QColor("#1f77b4"), QColor("#ff7f0e"), QColor("#2ca02c"), QColor("#d62728"),
                          QColor("#9467bd"), QColor("#8c564b"), QColor("#e377c2"), QColor("#7f7f7f"),
                          QColor("#bcbd22"), QColor("#17becf")};

} // namespace

std::vector<std::pair<QString, QColor>> ChartsView::checkedParameters() const
{
    std::vector<std::pair<QString, QColor>> out;
    for (int i = 0; i < m_parameters->count(); ++i)
        if (m_parameters->item(i)->checkState() == Qt::Checked)
            out.emplace_back(m_parameters->item(i)->text(), kColors[std::size_t(i) % std::size(kColors)]);
    return out;
}

void ChartsView::paintParameterSwatches()
{
    const QSignalBlocker block(m_parameters);
    for (int i = 0; i < m_parameters->count(); ++i) {
        QPixmap swatch(12, 12);
        swatch.fill(kColors[std::size_t(i) % std::size(kColors)]);
        m_parameters->item(i)->setIcon(QIcon(swatch));
    }
}

void ChartsView::rebuild()
{
    m_overlayArea->show();
    m_panelArea->hide();
    if (!onlyCurrentShown()) {
        rebuildOverlay(shownRuns());
        return;
    }
    const bool weight = showsWeightNorms();
    m_normView->chart()->setTitle(titleWithNonFinite(
        weight ? tr("Weight norm per parameter") : tr("Gradient norm per parameter"), nonFiniteSteps(m_history, true, weight)));
    rebuildLossScale();
    m_difference->setEnabled(false);
    m_sideBySide->setEnabled(false);
    const bool log = m_log->isChecked();
    const double smoothing = m_smoothing->value();
    // Markers help on a few steps and become a solid band on many.
    const bool markers = m_history.size() <= 50;
    const std::vector<QLineSeries*> loss =
        seriesOf(tr("loss"), stepLosses(m_history, log), smoothing, QColor("#1f77b4"), markers);
    fill(m_lossView, palette(), loss, log, false, {learningRates(m_history, tr("learning rate"), QColor("#2ca02c"))});
    m_lossView->chart()->setTitle(titleWithNonFinite(m_lossView->chart()->axes(Qt::Vertical).size() > 1
                                                         ? tr("Loss and learning rate (right) per step")
                                                         : tr("Loss per step"),
                                                     nonFiniteSteps(m_history, false)));

    std::vector<QLineSeries*> norms;
    for (const auto& [name, color] : checkedParameters())
        for (QLineSeries* series : seriesOf(name, stepNorms(m_history, name, log, weight), smoothing, color, false))
            norms.push_back(series);
    paintParameterSwatches();
    fill(m_normView, palette(), norms, log, false);
    const auto current = [this](const QString&) { return tr("Current run"); };
    connectClicks(m_lossView, current);
    connectClicks(m_normView, current);
    connectHover(m_lossView);
    connectHover(m_normView);
}

namespace {

/// B and later runs are dashed: two runs that agree then still show as two.
void dashAfterFirst(const std::vector<QLineSeries*>& series, std::size_t run)
{
    if (run == 0)
        return;
    for (QLineSeries* s : series) {
        QPen pen = s->pen();
        pen.setStyle(run == 1 ? Qt::DashLine : Qt::DotLine);
        pen.setWidthF(std::max(pen.widthF(), 2.0));
        s->setPen(pen);
    }
}

/// A vertical line at `step` over the y range of `series` (the first divergence).
QLineSeries* verticalLine(const QString& name, double step, const std::vector<QLineSeries*>& series, bool log)
{
    double low = HUGE_VAL, high = -HUGE_VAL;
    for (const QLineSeries* s : series)
        for (const QPointF& p : s->points()) {
            low = std::min(low, p.y());
            high = std::max(high, p.y());
        }
    if (low > high)
        return nullptr;
    if (log && low <= 0)
        return nullptr;
    auto* line = new QLineSeries;
    line->setName(name);
    line->append(step, low);
    line->append(step, high);
    QPen pen(QColor("#c62828"));
    pen.setWidthF(1.5);
    pen.setStyle(Qt::DashDotLine);
    line->setPen(pen);
    return line;
}

const QColor kRunColors[] = {QColor("#1f77b4"), QColor("#ff7f0e"), QColor("#2ca02c"), QColor("#9467bd"),
                             QColor("#8c564b"), QColor("#17becf")};

} // namespace

/// Clicking a point of a run's curve asks for that step (stepClicked); `runOf` names the run a
/// series belongs to.
void ChartsView::connectClicks(QChartView* view, const std::function<QString(const QString&)>& runOf)
{
    for (QAbstractSeries* series : view->chart()->series()) {
        auto* line = qobject_cast<QLineSeries*>(series);
        if (!line || line->name() == tr("runs part") || line->name() == tr("learning rate"))
            continue;
        const QString run = runOf(line->name());
        connect(line, &QLineSeries::clicked, this, [this, run](const QPointF& point) {
            emit stepClicked(run, std::int64_t(std::llround(point.x())));
        });
    }
}

void ChartsView::connectHover(QChartView* view)
{
    for (QAbstractSeries* series : view->chart()->series())
        if (auto* line = qobject_cast<QLineSeries*>(series))
            connect(line, &QLineSeries::hovered, this, [this, view](const QPointF& point, bool state) {
                if (!state) {
                    QToolTip::hideText();
                    return;
                }
                QToolTip::showText(QCursor::pos(), hoverText(std::int64_t(std::llround(point.x()))), view);
            });
}

QString ChartsView::hoverText(std::int64_t step) const
{
    QStringList parameters;
    for (const auto& [name, color] : checkedParameters())
        parameters << name;
    if (onlyCurrentShown())
        return chartHoverText({ChartRun{tr("Current run"), m_history}}, parameters, step, false);
    const std::vector<ChartRun> runs = shownRuns();
    return chartHoverText(runs, parameters, step, runs.size() == 2 && m_difference->isChecked());
}

// The ticked runs overlaid: the loss of each run in its own colour (the first solid, the second
// dashed, later ones dotted), and per ticked parameter its gradient norm in each run (the
// parameter's colour, dashed and dotted likewise); the first divergence of a comparison a
// vertical line in both charts when its two sides are what is drawn. The legend names the runs.
void ChartsView::rebuildOverlay(const std::vector<ChartRun>& runs)
{
    m_scaleView->hide(); // the current run's alone
    m_difference->setEnabled(runs.size() == 2);
    m_sideBySide->setEnabled(runs.size() >= 2);
    if (runs.size() >= 2 && m_sideBySide->isChecked() && !m_difference->isChecked()) {
        rebuildSideBySide(runs);
        return;
    }
    if (runs.size() == 2 && m_difference->isChecked()) {
        rebuildDifference(runs[0], runs[1]);
        return;
    }
    const bool log = m_log->isChecked();
    const double smoothing = m_smoothing->value();
    std::size_t longest = 0;
    for (const ChartRun& run : runs)
        longest = std::max(longest, run.steps.size());
    const bool markers = longest <= 50;
    const bool weight = showsWeightNorms();
    std::vector<QLineSeries*> loss, rates;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const QColor color = kRunColors[r % std::size(kRunColors)];
        const std::vector<QLineSeries*> series =
            seriesOf(runs[r].label, stepLosses(runs[r].steps, log), smoothing, color, markers);
        dashAfterFirst(series, r);
        loss.insert(loss.end(), series.begin(), series.end());
        // Each run's learning rate, its colour lighter, dotted, on the right axis.
        QLineSeries* rate = learningRates(runs[r].steps, tr("lr (%1)").arg(runs[r].label), color.lighter(140));
        QPen pen = rate->pen();
        pen.setStyle(Qt::DotLine);
        rate->setPen(pen);
        rates.push_back(rate);
    }
    std::vector<QLineSeries*> norms;
    for (const auto& [name, color] : checkedParameters())
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const std::vector<QLineSeries*> series =
                seriesOf(name + QStringLiteral(" (") + runs[r].label + QLatin1Char(')'),
                         stepNorms(runs[r].steps, name, log, weight), smoothing, color, false);
            dashAfterFirst(series, r);
            norms.insert(norms.end(), series.begin(), series.end());
        }
    paintParameterSwatches();
    const bool comparison = runs.size() == 2 && m_compared.size() == 2 && runs[0].label == m_compared[0].label
                            && runs[1].label == m_compared[1].label;
    if (m_partsAt && comparison) {
        if (QLineSeries* line = verticalLine(tr("runs part"), double(*m_partsAt), loss, log))
            loss.push_back(line);
        if (QLineSeries* line = verticalLine(tr("runs part"), double(*m_partsAt), norms, log))
            norms.push_back(line);
    }
    // The legend names the runs on the loss chart; on the norm chart the list is the legend.
    fill(m_lossView, palette(), loss, log, true, rates);
    // Below the plot when learning rates take the right edge: beside it, the legend left the plot
    // too narrow for the rate axis's labels ("0...").
    m_lossView->chart()->legend()->setAlignment(m_lossView->chart()->axes(Qt::Vertical).size() > 1 ? Qt::AlignBottom
                                                                                                   : Qt::AlignRight);
    m_lossView->chart()->setTitle(m_lossView->chart()->axes(Qt::Vertical).size() > 1
                                      ? tr("Loss and learning rate (right, dotted) per step, %n run(s)", nullptr, int(runs.size()))
                                      : tr("Loss per step, %n run(s)", nullptr, int(runs.size())));
    fill(m_normView, palette(), norms, log, false);
    int nonFinite = 0;
    for (const ChartRun& run : runs)
        nonFinite += nonFiniteSteps(run.steps, true, weight);
    m_normView->chart()->setTitle(titleWithNonFinite(
        weight ? tr("Weight norm per parameter") : tr("Gradient norm per parameter"), nonFinite));
    // A series is named by its run ("A: has_aux on", "... (smoothed)") or "param (run)".
    const auto runOf = [runs](const QString& name) {
        for (const ChartRun& run : runs)
            if (name == run.label || name.startsWith(run.label + QLatin1Char(' ')) || name.endsWith(QLatin1Char('(') + run.label + QLatin1Char(')')))
                return run.label;
        return QString();
    };
    connectClicks(m_lossView, runOf);
    connectClicks(m_normView, runOf);
    connectHover(m_lossView);
    connectHover(m_normView);
}

namespace {

/// a's value minus b's at each step both have (finite on both sides).
template <class Value>
std::vector<QPointF> differences(const ChartRun& a, const ChartRun& b, Value value)
{
    std::vector<QPointF> out;
    for (const debug::StepSummary& sa : a.steps)
        for (const debug::StepSummary& sb : b.steps)
            if (sa.step == sb.step) {
                const std::optional<double> va = value(sa), vb = value(sb);
                if (va && vb && std::isfinite(*va) && std::isfinite(*vb))
                    out.emplace_back(double(sa.step), *va - *vb);
            }
    return out;
}

} // namespace

// Two runs as their difference (first - second): the loss, and each ticked parameter's gradient
// norm; a linear axis, since a difference changes sign.
void ChartsView::rebuildDifference(const ChartRun& a, const ChartRun& b)
{
    const double smoothing = m_smoothing->value();
    const QString name = tr("%1 - %2").arg(a.label, b.label);
    const std::vector<QLineSeries*> loss = seriesOf(
        name, differences(a, b, [](const debug::StepSummary& s) { return std::optional<double>(s.loss); }), smoothing,
        QColor("#1f77b4"), true);
    std::vector<QLineSeries*> norms;
    const bool weight = showsWeightNorms();
    for (const auto& [label, color] : checkedParameters()) {
        const std::string param = label.toStdString();
        const auto norm = [&param, weight](const debug::StepSummary& s) -> std::optional<double> {
            for (const debug::ParameterSummary& p : s.parameters)
                if (p.name == param)
                    return normOf(p, weight);
            return std::nullopt;
        };
        for (QLineSeries* series : seriesOf(label, differences(a, b, norm), smoothing, color, false))
            norms.push_back(series);
    }
    fill(m_lossView, palette(), loss, false, false);
    m_lossView->chart()->setTitle(tr("Loss difference: %1").arg(name));
    fill(m_normView, palette(), norms, false, false);
    m_normView->chart()->setTitle(weight ? tr("Weight norm difference per parameter")
                                         : tr("Gradient norm difference per parameter"));
    connectHover(m_lossView);
    connectHover(m_normView);
}

namespace {

/// One range over all `views` on each axis, so panels side by side compare at a glance.
void sameRanges(const std::vector<QChartView*>& views)
{
    double xLow = HUGE_VAL, xHigh = -HUGE_VAL, yLow = HUGE_VAL, yHigh = -HUGE_VAL;
    const auto range = axisRange;
    const auto setRange = [](QAbstractAxis* axis, double low, double high) { axis->setRange(low, high); };
    for (const QChartView* v : views) {
        if (v->chart()->series().isEmpty())
            continue;
        const auto [x0, x1] = range(v->chart()->axes(Qt::Horizontal).front());
        const auto [y0, y1] = range(v->chart()->axes(Qt::Vertical).front());
        xLow = std::min(xLow, x0);
        xHigh = std::max(xHigh, x1);
        yLow = std::min(yLow, y0);
        yHigh = std::max(yHigh, y1);
    }
    if (xLow > xHigh)
        return;
    for (QChartView* v : views) {
        setRange(v->chart()->axes(Qt::Horizontal).front(), xLow, xHigh);
        setRange(v->chart()->axes(Qt::Vertical).front(), yLow, yHigh);
    }
}

} // namespace

// A panel per run, its loss over its gradient norms; every loss panel on one scale, every norm
// panel on another, the steps aligned.
void ChartsView::rebuildSideBySide(const std::vector<ChartRun>& runs)
{
    m_overlayArea->hide();
    m_panelArea->show();
    auto* grid = static_cast<QGridLayout*>(m_panelArea->layout());
    while (m_panels.size() < 2 * runs.size()) {
        QChartView* view = makeChartView(QString());
        view->setMinimumSize(120, 80);
        grid->addWidget(view, int(m_panels.size() % 2), int(m_panels.size() / 2));
        m_panels.push_back(view);
    }
    // Equal columns for the shown runs, none for the hidden panels of runs unticked since.
    for (std::size_t i = 0; i < m_panels.size(); ++i) {
        m_panels[i]->setVisible(i < 2 * runs.size());
        grid->setColumnStretch(int(i / 2), i < 2 * runs.size() ? 1 : 0);
    }
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    const bool log = m_log->isChecked();
    const double smoothing = m_smoothing->value();
    const bool comparison = runs.size() == 2 && m_compared.size() == 2 && runs[0].label == m_compared[0].label
                            && runs[1].label == m_compared[1].label;
    std::vector<QChartView*> lossViews, normViews;
    const bool weight = showsWeightNorms();
    for (std::size_t r = 0; r < runs.size(); ++r) {
        std::vector<QLineSeries*> loss = seriesOf(runs[r].label, stepLosses(runs[r].steps, log), smoothing,
                                                  kRunColors[r % std::size(kRunColors)], runs[r].steps.size() <= 50);
        std::vector<QLineSeries*> norms;
        for (const auto& [name, color] : checkedParameters())
            for (QLineSeries* s : seriesOf(name, stepNorms(runs[r].steps, name, log, weight), smoothing, color, false))
                norms.push_back(s);
        if (m_partsAt && comparison) {
            if (QLineSeries* line = verticalLine(tr("runs part"), double(*m_partsAt), loss, log))
                loss.push_back(line);
            if (QLineSeries* line = verticalLine(tr("runs part"), double(*m_partsAt), norms, log))
                norms.push_back(line);
        }
        QChartView* lossView = m_panels[2 * r];
        QChartView* normView = m_panels[2 * r + 1];
        fill(lossView, palette(), loss, log, false,
             {learningRates(runs[r].steps, tr("learning rate"), QColor("#2ca02c"))});
        lossView->chart()->setTitle(lossView->chart()->axes(Qt::Vertical).size() > 1
                                        ? tr("%1: loss, learning rate (right)").arg(runs[r].label)
                                        : tr("%1: loss").arg(runs[r].label));
        fill(normView, palette(), norms, log, false);
        normView->chart()->setTitle((weight ? tr("%1: weight norms") : tr("%1: gradient norms")).arg(runs[r].label));
        const QString label = runs[r].label;
        const auto runOf = [label](const QString&) { return label; };
        connectClicks(lossView, runOf);
        connectClicks(normView, runOf);
        connectHover(lossView);
        connectHover(normView);
        lossViews.push_back(lossView);
        normViews.push_back(normView);
    }
    sameRanges(lossViews);
    sameRanges(normViews);
}

// Note [the loss-scale chart]: dynamic loss scaling halves the scale on an overflowing step and
// skips its update; a scale that keeps falling, or many skipped updates, is how a half-precision
// run goes quietly wrong. The scale spans powers of two, so its axis is log2.
void ChartsView::rebuildLossScale()
{
    auto* scale = new QLineSeries;
    scale->setName(tr("loss scale"));
    scale->setColor(QColor("#6a1b9a"));
    auto* overflows = new QScatterSeries;
    overflows->setName(tr("overflow"));
    overflows->setColor(QColor("#c62828"));
    overflows->setMarkerSize(9.0);
    int skipped = 0;
    for (const debug::StepSummary& step : m_history) {
        if (!step.lossScale || !(step.lossScale->lossScale > 0.0))
            continue;
        scale->append(double(step.step), step.lossScale->lossScale);
        if (step.lossScale->overflow)
            overflows->append(double(step.step), step.lossScale->lossScale);
        skipped += step.lossScale->updateSkipped ? 1 : 0;
    }
    if (scale->count() == 0) {
        delete scale;
        delete overflows;
        m_scaleView->hide();
        return;
    }
    QChart* old = m_scaleView->chart();
    auto* chart = new QChart;
    chart->setMargins(old->margins());
    chart->legend()->setVisible(false);
    applyChartTheme(chart, palette());
    m_scaleView->setChart(chart);
    delete old;
    // Two lines: one would be cut off ("4 overflow(s...") at the panel's usual width.
    chart->setTitle(tr("Loss scale per step") + QStringLiteral("<br>")
                    + tr("%n overflow(s)", nullptr, int(overflows->count()))
                    + tr(", %n update(s) skipped", nullptr, skipped));
    auto* x = new QValueAxis;
    x->setTitleText(tr("step"));
    x->setLabelFormat(QStringLiteral("%d"));
    auto* y = new QLogValueAxis;
    y->setBase(2.0);
    y->setLabelFormat(QStringLiteral("%.3g"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double low = HUGE_VAL, high = -HUGE_VAL, first = HUGE_VAL, last = -HUGE_VAL;
    for (const QPointF& p : scale->points()) {
        low = std::min(low, p.y());
        high = std::max(high, p.y());
        first = std::min(first, p.x());
        last = std::max(last, p.x());
    }
    for (QXYSeries* s : {static_cast<QXYSeries*>(scale), static_cast<QXYSeries*>(overflows)}) {
        chart->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    x->setRange(first, std::max(last, first + 1));
    y->setRange(std::exp2(std::floor(std::log2(low))), std::exp2(std::ceil(std::log2(high)) + (high == low ? 1 : 0)));
    m_scaleView->show();
}

bool ChartsView::lossScaleShown() const
{
    return !m_scaleView->isHidden();
}

int ChartsView::lossScalePoints() const
{
    const auto series = m_scaleView->chart()->series();
    return lossScaleShown() && !series.isEmpty() ? int(static_cast<QXYSeries*>(series.front())->count()) : 0;
}

int ChartsView::overflowMarks() const
{
    const auto series = m_scaleView->chart()->series();
    return lossScaleShown() && series.size() > 1 ? int(static_cast<QXYSeries*>(series.at(1))->count()) : 0;
}

QString ChartsView::lossTitle() const
{
    return m_lossView->chart()->title();
}

QString ChartsView::normTitle() const
{
    return m_normView->chart()->title();
}

QString ChartsView::lossScaleTitle() const
{
    return lossScaleShown() ? m_scaleView->chart()->title() : QString();
}

} // namespace gradstep::views
