// SPDX-License-Identifier: MIT
#include "views/window/compare_view.h"

#include "views/chart_theme.h"

#include <QComboBox>
#include <QEvent>
#include <QResizeEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QHorizontalBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>
#include <algorithm>
#include <cmath>
#include <iterator>

namespace gradstep::views {

namespace {

using session::CompareWhat;
using session::Verdict;

constexpr CompareWhat kChoices[] = {CompareWhat::HasAux, CompareWhat::Mode, CompareWhat::GradApi,
                                    CompareWhat::Api, CompareWhat::FiniteDifferences, CompareWhat::Amp,
                                    CompareWhat::Ranks};

QString number(std::optional<double> v)
{
    if (!v)
        return QStringLiteral("-");
    return QString::number(*v, 'g', 6);
}

QTableWidget* makeTable(const QStringList& headers)
{
    auto* table = new QTableWidget(0, int(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->setVisible(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

QTableWidgetItem* item(const QString& text, bool numeric = false)
{
    auto* i = new QTableWidgetItem(text);
    if (numeric)
        i->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return i;
}

/// Translucent, so the text stays readable on light and dark palettes.
QColor verdictColor(Verdict v)
{
    switch (v) {
    case Verdict::Different: return QColor(230, 60, 60, 110);
    case Verdict::Missing: return QColor(240, 150, 30, 110);
    case Verdict::Close: return QColor(230, 200, 40, 80);
    case Verdict::Equal: break;
    }
    return QColor();
}

QChartView* makeChart(const QString& title)
{
    auto* chart = new QChart;
    chart->setTitle(title);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->legend()->setAlignment(Qt::AlignBottom);
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(160, 160);
    return view;
}

void fillBars(QChartView* view, const QPalette& palette, const QStringList& categories, const QString& labelA,
              const QString& labelB, const std::vector<double>& a, const std::vector<double>& b)
{
    // A new chart: axes removed from a chart leave their drawings in its scene.
    QChart* old = view->chart();
    auto* chart = new QChart;
    chart->setTitle(old->title());
    chart->setMargins(old->margins());
    chart->legend()->setAlignment(old->legend()->alignment());
    applyChartTheme(chart, palette);
    view->setChart(chart);
    delete old;
    auto* setA = new QBarSet(QStringLiteral("A: ") + labelA);
    auto* setB = new QBarSet(QStringLiteral("B: ") + labelB);
    setA->setColor(QColor(31, 119, 180));
    setB->setColor(QColor(255, 127, 14));
    double top = 0.0;
    for (auto it = a.rbegin(); it != a.rend(); ++it) {
        *setA << (std::isfinite(*it) ? *it : 0.0);
        top = std::max(top, std::isfinite(*it) ? *it : 0.0);
    }
    for (auto it = b.rbegin(); it != b.rend(); ++it) {
        *setB << (std::isfinite(*it) ? *it : 0.0);
        top = std::max(top, std::isfinite(*it) ? *it : 0.0);
    }
    // Horizontal bars: parameter names stay readable on the left, first at the top.
    auto* series = new QHorizontalBarSeries;
    series->append(setA);
    series->append(setB);
    // Values at the bars: a norm thousands of times smaller than its twin still reads.
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPrecision(3);
    series->setBarWidth(0.9);
    for (QBarSet* set : {setA, setB}) {
        set->setLabelColor(palette.color(QPalette::Text));
        QFont font = set->labelFont();
        font.setPointSizeF(7.0);
        set->setLabelFont(font);
    }
    chart->addSeries(series);
    auto* names = new QBarCategoryAxis;
    QStringList reversed;
    for (const QString& c : categories)
        reversed.prepend(c);
    names->append(reversed);
    auto* values = new QValueAxis;
    values->setRange(0.0, top > 0.0 ? top * 1.25 : 1.0); // room for the labels
    values->setLabelFormat(QStringLiteral("%.3g"));
    values->setTickCount(5);
    chart->addAxis(names, Qt::AlignLeft);
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(names);
    series->attachAxis(values);
    chart->legend()->setVisible(true);
}

/// Where the curves of a comparison over several steps part, in a sentence.
QString divergenceText(const session::Comparison& c)
{
    const std::size_t both = std::min(c.a.steps.size(), c.b.steps.size());
    const auto& d = c.firstDivergence;
    if (!d)
        return QObject::tr("Over %1 steps the runs never part (see Charts).").arg(both);
    const QString what = d->kind == session::Divergence::Kind::Loss
                             ? QObject::tr("the loss")
                             : QObject::tr("the gradient of %1").arg(QString::fromStdString(d->name));
    return QObject::tr("The runs part at step %1: %2 (see Charts).").arg(d->step).arg(what);
}

} // namespace

QString CompareView::idleText()
{
    return tr("Pick what to flip and press Compare: the script's first training step (or as many steps as "
              "Steps says) runs as A and as B from the same seed.");
}

CompareView::CompareView(QWidget* parent) : QWidget(parent)
{
    m_what = new QComboBox;
    for (CompareWhat what : kChoices)
        m_what->addItem(compareWhatText(what));
    m_steps = new QSpinBox;
    m_steps->setRange(1, 10000);
    m_steps->setToolTip(tr("Training steps each side runs: over more than one, the Charts panel overlays "
                           "both runs' curves and marks the first step where they part"));
    m_sides = new QLabel;
    m_sides->setWordWrap(true);
    m_run = new QPushButton(tr("Compare"));
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar;
    m_progress->setMaximumWidth(180);
    m_progress->setVisible(false);
    m_status = new QLabel(idleText());
    m_status->setWordWrap(true);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Flip:")));
    bar->addWidget(m_what);
    bar->addWidget(new QLabel(tr("Steps:")));
    bar->addWidget(m_steps);
    bar->addWidget(m_run);
    bar->addWidget(m_cancel);
    bar->addWidget(m_progress);
    bar->addStretch(1);

    QWidget* split = createPanes();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_sides);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_what, &QComboBox::currentIndexChanged, this, [this] { updateSides(); });
    connect(m_run, &QPushButton::clicked, this, [this] { emit compareRequested(what()); });
    connect(m_cancel, &QPushButton::clicked, this, [this] { emit cancelRequested(); });
    updateSides();
}

QWidget* CompareView::createPanes()
{
    m_diff = makeTable({tr("Parameter"), tr("Verdict"), tr("|grad| A"), tr("|grad| B"), tr("max |A-B|"),
                        tr("rel. diff")});
    m_figures = makeTable({tr(""), tr("A"), tr("B")});
    m_figures->setRowCount(6);
    const QString names[] = {tr("setting"), tr("loss"), tr("forward passes"),
                             tr("nodes (fwd/bwd/upd)"), tr("seconds"), tr("error")};
    for (int r = 0; r < 6; ++r) {
        m_figures->setItem(r, 0, item(names[r]));
        m_figures->setItem(r, 1, item(QString()));
        m_figures->setItem(r, 2, item(QString()));
    }
    m_figures->setWordWrap(true);
    m_diff->horizontalHeader()->setStretchLastSection(false);
    m_normChart = makeChart(tr("Gradient norm per parameter"));
    m_lossChart = makeChart(tr("Loss"));

    auto* tables = new QSplitter(Qt::Vertical);
    tables->addWidget(m_diff);
    tables->addWidget(m_figures);
    tables->setSizes({300, 200});
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(m_normChart);
    charts->addWidget(m_lossChart);
    charts->setSizes({300, 100});
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(tables);
    split->addWidget(charts);
    split->setSizes({450, 550});
    return split;
}

CompareWhat CompareView::what() const
{
    return kChoices[std::clamp(m_what->currentIndex(), 0, static_cast<int>(std::size(kChoices)) - 1)];
}

void CompareView::setWhat(CompareWhat what)
{
    for (int i = 0; i < static_cast<int>(std::size(kChoices)); ++i)
        if (kChoices[i] == what)
            m_what->setCurrentIndex(i);
}

int CompareView::steps() const
{
    return m_steps->value();
}

void CompareView::setSteps(int steps)
{
    m_steps->setValue(steps);
}

void CompareView::setBaseDescription(const QString& text)
{
    m_base = text;
    updateSides();
}

void CompareView::updateSides()
{
    QString text = tr("A and B differ only in the flipped setting");
    if (!m_base.isEmpty())
        text += tr("; both: %1").arg(m_base);
    m_sides->setText(text);
}

void CompareView::setRunning(bool running)
{
    m_run->setEnabled(!running);
    m_what->setEnabled(!running);
    m_steps->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    if (running) {
        m_progress->setRange(0, 0);
        m_status->setText(tr("Starting the comparison..."));
    }
}

void CompareView::setProgress(const QString& label, int run, int runs)
{
    m_progress->setRange(0, runs);
    m_progress->setValue(run - 1);
    m_progress->setFormat(QStringLiteral("%1 / %2").arg(run).arg(runs));
    const bool warmUp = runs == 3 && run == 1;
    m_status->setText(warmUp ? tr("Run %1 of %2: %3 (warm-up, not measured)").arg(run).arg(runs).arg(label)
                             : tr("Run %1 of %2: %3").arg(run).arg(runs).arg(label));
}

bool CompareView::isRunning() const
{
    return m_cancel->isEnabled();
}

QString CompareView::statusText() const
{
    return m_status->text();
}

void CompareView::setComparison(const session::Comparison& c)
{
    m_comparison = c;
    setRunning(false);
    setWhat(c.what);
    int different = 0;
    for (const session::ParamDiff& d : c.diff)
        different += d.verdict == Verdict::Different || d.verdict == Verdict::Missing;
    if (c.interrupted)
        m_status->setText(tr("Cancelled."));
    else if (!c.ok())
        m_status->setText(tr("A side failed before its first training step: see its error below."));
    else
        m_status->setText(tr("A: %1, B: %2. %3 of %4 gradients differ. %5")
                              .arg(QString::fromStdString(c.a.label), QString::fromStdString(c.b.label))
                              .arg(different).arg(c.diff.size())
                              .arg(QString::fromStdString(session::explainComparison(c))));
    if (!c.interrupted && c.ok() && c.steps > 1)
        m_status->setText(m_status->text() + QLatin1Char(' ') + divergenceText(c));
    fillDiff(c);
    fillFigures(c);
    fillCharts(c);
}

void CompareView::clear()
{
    m_comparison.reset();
    setRunning(false);
    m_status->setText(idleText());
    m_diff->setRowCount(0);
    for (int r = 0; r < m_figures->rowCount(); ++r)
        for (int side = 1; side <= 2; ++side) {
            m_figures->item(r, side)->setText(QString());
            m_figures->item(r, side)->setBackground(QBrush());
        }
    fillBars(m_normChart, palette(), {}, QString(), QString(), {}, {});
    fillBars(m_lossChart, palette(), {}, QString(), QString(), {}, {});
}

void CompareView::fillDiff(const session::Comparison& c)
{
    m_diff->setSortingEnabled(false);
    m_diff->setRowCount(int(c.diff.size()));
    for (int r = 0; r < int(c.diff.size()); ++r) {
        const session::ParamDiff& d = c.diff[std::size_t(r)];
        m_diff->setItem(r, Name, item(QString::fromStdString(d.name)));
        m_diff->setItem(r, NormA, item(number(d.normA), true));
        m_diff->setItem(r, NormB, item(number(d.normB), true));
        m_diff->setItem(r, MaxAbsDiff, item(number(d.maxAbsDiff), true));
        m_diff->setItem(r, RelDiff, item(number(d.relDiff), true));
        auto* verdict = item(QString::fromLatin1(session::verdictName(d.verdict)));
        QFont bold = verdict->font();
        bold.setBold(d.verdict != Verdict::Equal);
        verdict->setFont(bold);
        if (d.worstElement) // fd: where this gradient and its finite differences differ most
            verdict->setToolTip(tr("worst element %1%2: A %3, B %4")
                                    .arg(QString::fromStdString(d.name), QString::fromStdString(*d.worstElement),
                                         number(d.worstA), number(d.worstB)));
        m_diff->setItem(r, VerdictColumn, verdict);
        const QColor color = verdictColor(d.verdict);
        for (int col = 0; col < ColumnCount; ++col)
            m_diff->item(r, col)->setBackground(color.isValid() ? QBrush(color) : QBrush());
    }
    m_diff->resizeColumnsToContents();
}

void CompareView::fillFigures(const session::Comparison& c)
{
    const session::StepFigures* sides[] = {&c.a, &c.b};
    for (int s = 0; s < 2; ++s) {
        const session::StepFigures& f = *sides[s];
        const bool ran = !f.error.has_value();
        const auto set = [&](Figure row, const QString& text) {
            m_figures->item(row, s + 1)->setText(text);
        };
        set(Setting, QString::fromStdString(f.label));
        set(Loss, ran ? number(f.loss) : QStringLiteral("-"));
        set(ForwardPasses, ran ? QString::number(f.forwardPasses) : QStringLiteral("-"));
        set(Nodes, ran ? QStringLiteral("%1 (%2/%3/%4)").arg(f.nodes()).arg(f.forwardNodes)
                             .arg(f.backwardNodes).arg(f.updateNodes)
                       : QStringLiteral("-"));
        set(Seconds, ran ? QString::number(f.seconds, 'f', 4) : QStringLiteral("-"));
        QString error = QString::fromStdString(f.error.value_or(f.laterError.value_or("")));
        if (f.errorLocation && f.errorLocation->line > 0)
            error += tr(" (line %1)").arg(f.errorLocation->line);
        set(Error, error);
        m_figures->item(Error, s + 1)->setToolTip(error); // a long error does not fit the cell
        m_figures->item(Error, s + 1)->setForeground(error.isEmpty() ? QBrush() : QBrush(QColor(220, 50, 50)));
    }
    // The loss differs between the sides: highlighted like a differing gradient.
    const bool lossDiffers = c.a.loss && c.b.loss && *c.a.loss != *c.b.loss;
    for (int col = 1; col <= 2; ++col)
        m_figures->item(Loss, col)->setBackground(lossDiffers ? QBrush(verdictColor(Verdict::Different)) : QBrush());
    m_figures->resizeColumnsToContents();
    m_figures->resizeRowsToContents();
}

void CompareView::fillCharts(const session::Comparison& c)
{
    QStringList names;
    std::vector<double> a, b;
    for (const session::ParamDiff& d : c.diff) {
        names << QString::fromStdString(d.name);
        a.push_back(d.normA.value_or(0.0));
        b.push_back(d.normB.value_or(0.0));
    }
    const QString la = QString::fromStdString(c.a.label);
    const QString lb = QString::fromStdString(c.b.label);
    fillBars(m_normChart, palette(), names, la, lb, a, b);
    fillBars(m_lossChart, palette(), {tr("loss")}, la, lb,
             {c.a.error ? 0.0 : c.a.loss.value_or(0.0)}, {c.b.error ? 0.0 : c.b.loss.value_or(0.0)});
    m_lossChart->chart()->legend()->setVisible(false); // the same colours as beside it
}

void CompareView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // In a narrow dock the loss chart gives its room to the norms (the loss is in the table).
    m_lossChart->setVisible(width() >= 1100);
}

void CompareView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_comparison)
        fillCharts(*m_comparison);
}

int CompareView::parameterRows() const
{
    return m_diff->rowCount();
}

QString CompareView::cell(int row, Column column) const
{
    const QTableWidgetItem* i = m_diff->item(row, column);
    return i ? i->text() : QString();
}

bool CompareView::highlighted(int row) const
{
    const QTableWidgetItem* i = m_diff->item(row, VerdictColumn);
    return i && i->background().style() != Qt::NoBrush;
}

QString CompareView::figure(Figure row, int side) const
{
    return m_figures->item(row, side + 1)->text();
}

int CompareView::chartBars() const
{
    int bars = 0;
    for (QAbstractSeries* s : m_normChart->chart()->series())
        for (QBarSet* set : static_cast<QAbstractBarSeries*>(s)->barSets())
            bars += int(set->count());
    return bars;
}

QString compareWhatText(session::CompareWhat what)
{
    switch (what) {
    case session::CompareWhat::HasAux: return QObject::tr("has_aux on / off");
    case session::CompareWhat::Mode: return QObject::tr("PyNative / graph mode");
    case session::CompareWhat::GradApi: return QObject::tr("value_and_grad / grad-only fallback");
    case session::CompareWhat::Api: return QObject::tr("API 2.x / 1.10");
    case session::CompareWhat::Scripts: return QObject::tr("two scripts");
    case session::CompareWhat::Saved: return QObject::tr("a saved run");
    case session::CompareWhat::FiniteDifferences: return QObject::tr("analytic / finite differences (float64)");
    case session::CompareWhat::Amp: return QObject::tr("float32 (O0) / mixed precision");
    case session::CompareWhat::Ranks: return QObject::tr("2 ranks / 1 rank on the full batch");
    }
    return QString();
}

} // namespace gradstep::views
