// ChartsView's export: the loss chart above the gradient-norm chart as PNG (twice the screen
// resolution) or SVG (vector, QSvgGenerator), and the data behind them as CSV.
// SPDX-License-Identifier: MIT
#include "views/charts_view.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QResizeEvent>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QtCharts/QChartView>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace gradstep::views {

namespace {

QString csvNumber(double v)
{
    return std::isfinite(v) ? QString::number(v, 'g', 17) : QStringLiteral("nan");
}

QString csvField(const QString& text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')))
        return text;
    return QLatin1Char('"') + QString(text).replace(QLatin1String("\""), QLatin1String("\"\"")) + QLatin1Char('"');
}

bool anyWeightNorm(const std::vector<debug::StepSummary>& steps)
{
    return std::any_of(steps.begin(), steps.end(), [](const debug::StepSummary& s) {
        return std::any_of(s.parameters.begin(), s.parameters.end(),
                           [](const debug::ParameterSummary& p) { return std::isfinite(p.weightNorm); });
    });
}

bool anyLearningRate(const std::vector<debug::StepSummary>& steps)
{
    return std::any_of(steps.begin(), steps.end(), [](const debug::StepSummary& s) { return std::isfinite(s.learningRate); });
}

/// One column per run and series: step, "loss (A)", "loss (B)", the learning rates "lr (A)", ...
/// when a run has one, then per parameter its gradient norm in each run, then (when recorded) its
/// weight norm in each run; a run without that step leaves its cells empty.
QString comparedCsv(const std::vector<ChartRun>& runs)
{
    std::vector<QString> names;
    std::set<QString> known;
    std::int64_t last = 0;
    for (const ChartRun& run : runs)
        for (const debug::StepSummary& step : run.steps) {
            last = std::max(last, step.step);
            for (const debug::ParameterSummary& p : step.parameters)
                if (known.insert(QString::fromStdString(p.name)).second)
                    names.push_back(QString::fromStdString(p.name));
        }
    const bool rates = std::any_of(runs.begin(), runs.end(), [](const ChartRun& r) { return anyLearningRate(r.steps); });
    const bool weights = std::any_of(runs.begin(), runs.end(), [](const ChartRun& r) { return anyWeightNorm(r.steps); });
    QString out = QStringLiteral("step");
    for (const ChartRun& run : runs)
        out += QLatin1Char(',') + csvField(QStringLiteral("loss (%1)").arg(run.label));
    if (rates)
        for (const ChartRun& run : runs)
            out += QLatin1Char(',') + csvField(QStringLiteral("lr (%1)").arg(run.label));
    for (const QString& name : names)
        for (const ChartRun& run : runs)
            out += QLatin1Char(',') + csvField(QStringLiteral("%1 (%2)").arg(name, run.label));
    if (weights)
        for (const QString& name : names)
            for (const ChartRun& run : runs)
                out += QLatin1Char(',') + csvField(QStringLiteral("%1 weight norm (%2)").arg(name, run.label));
    out += QLatin1Char('\n');
    for (std::int64_t s = 1; s <= last; ++s) {
        out += QString::number(s);
        std::vector<const debug::StepSummary*> at(runs.size(), nullptr);
        for (std::size_t r = 0; r < runs.size(); ++r)
            for (const debug::StepSummary& step : runs[r].steps)
                if (step.step == s)
                    at[r] = &step;
        for (const debug::StepSummary* step : at)
            out += QLatin1Char(',') + (step ? csvNumber(step->loss) : QString());
        if (rates)
            for (const debug::StepSummary* step : at)
                out += QLatin1Char(',') + (step && std::isfinite(step->learningRate) ? csvNumber(step->learningRate) : QString());
        const auto normCells = [&](bool weight) {
            for (const QString& name : names)
                for (const debug::StepSummary* step : at) {
                    QString cell;
                    if (step)
                        for (const debug::ParameterSummary& p : step->parameters)
                            if (QString::fromStdString(p.name) == name)
                                cell = csvNumber(weight ? p.weightNorm : p.gradientNorm);
                    out += QLatin1Char(',') + cell;
                }
        };
        normCells(false);
        if (weights)
            normCells(true);
        out += QLatin1Char('\n');
    }
    return out;
}

} // namespace

QString ChartsView::toCsv() const
{
    if (!onlyCurrentShown())
        return comparedCsv(shownRuns());
    std::vector<QString> names;
    std::map<QString, std::size_t> column;
    for (const debug::StepSummary& step : m_history)
        for (const debug::ParameterSummary& p : step.parameters) {
            const QString name = QString::fromStdString(p.name);
            if (column.emplace(name, names.size()).second)
                names.push_back(name);
        }
    const bool rates = anyLearningRate(m_history);
    const bool weights = anyWeightNorm(m_history);
    const bool scaled = std::any_of(m_history.begin(), m_history.end(),
                                    [](const debug::StepSummary& s) { return s.lossScale.has_value(); });
    QString out = QStringLiteral("step,loss");
    if (rates)
        out += QStringLiteral(",learning_rate");
    if (scaled)
        out += QStringLiteral(",loss_scale,overflow");
    for (const QString& name : names)
        out += QLatin1Char(',') + csvField(name);
    if (weights)
        for (const QString& name : names)
            out += QLatin1Char(',') + csvField(name + QStringLiteral(" weight norm"));
    out += QLatin1Char('\n');
    for (const debug::StepSummary& step : m_history) {
        std::vector<QString> norms(names.size() * (weights ? 2 : 1));
        for (const debug::ParameterSummary& p : step.parameters) {
            const std::size_t c = column.at(QString::fromStdString(p.name));
            norms[c] = csvNumber(p.gradientNorm);
            if (weights)
                norms[names.size() + c] = csvNumber(p.weightNorm);
        }
        out += QString::number(step.step) + QLatin1Char(',') + csvNumber(step.loss);
        if (rates)
            out += QLatin1Char(',') + (std::isfinite(step.learningRate) ? csvNumber(step.learningRate) : QString());
        if (scaled)
            out += step.lossScale ? QLatin1Char(',') + csvNumber(step.lossScale->lossScale)
                                        + (step.lossScale->overflow ? QStringLiteral(",1") : QStringLiteral(",0"))
                                  : QStringLiteral(",,");
        for (const QString& n : norms)
            out += QLatin1Char(',') + n;
        out += QLatin1Char('\n');
    }
    return out;
}

QString ChartsView::exportTo(const QString& path) const
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv")) {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Text) || file.write(toCsv().toUtf8()) < 0 || !file.commit())
            return tr("cannot write %1").arg(path);
        return QString();
    }
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return tr("cannot export charts to '%1': expected a .png, .svg or .csv file").arg(path);
    // Drawn at a readable size whatever the dock's: a chart view is resized for the picture
    // and back (hidden ones get the resize event they would otherwise get when shown). One
    // column of two charts, or one per run side by side.
    const std::vector<std::vector<QChartView*>> columns = shownCharts();
    const int columnWidth = std::max({m_lossView->width(), m_normView->width(), columns.size() > 1 ? 560 : 900});
    const QSize cell(columnWidth, std::max({m_lossView->height(), m_normView->height(), 320}));
    std::size_t rows = 0;
    for (const auto& column : columns)
        rows = std::max(rows, column.size());
    const QSize whole(cell.width() * int(columns.size()), cell.height() * int(rows));
    const auto resize = [](QChartView* view, const QSize& size) {
        const QSize old = view->size();
        view->resize(size);
        QResizeEvent event(size, old);
        QCoreApplication::sendEvent(view, &event);
        return old;
    };
    const auto paint = [&](QPainter& painter, double scale) {
        painter.setRenderHint(QPainter::Antialiasing);
        painter.fillRect(QRectF(0, 0, whole.width() * scale, whole.height() * scale), palette().color(QPalette::Base));
        for (std::size_t c = 0; c < columns.size(); ++c)
            for (std::size_t r = 0; r < columns[c].size(); ++r) {
                QChartView* view = columns[c][r];
                const QSize old = resize(view, cell);
                view->render(&painter,
                             QRectF(double(c) * cell.width() * scale, double(r) * cell.height() * scale,
                                    cell.width() * scale, cell.height() * scale),
                             view->viewport()->rect(), Qt::IgnoreAspectRatio);
                resize(view, old);
            }
        return painter.end();
    };
    bool ok = false;
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(whole);
        svg.setViewBox(QRect(QPoint(0, 0), whole));
        svg.setTitle(tr("gradstep charts"));
        QPainter painter(&svg);
        ok = paint(painter, 1.0);
    } else {
        QImage image(whole * 2, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        ok = paint(painter, 2.0) && image.save(path, "PNG");
    }
    return ok ? QString() : tr("cannot write %1").arg(path);
}

} // namespace gradstep::views
