// SPDX-License-Identifier: MIT
#include "views/charts_hover.h"

#include <QObject>
#include <cmath>
#include <optional>

namespace gradstep::views {

namespace {

const debug::StepSummary* stepOf(const ChartRun& run, std::int64_t step)
{
    for (const debug::StepSummary& s : run.steps)
        if (s.step == step)
            return &s;
    return nullptr;
}

const debug::ParameterSummary* parameterOf(const debug::StepSummary& step, const QString& name)
{
    const std::string wanted = name.toStdString();
    for (const debug::ParameterSummary& p : step.parameters)
        if (p.name == wanted)
            return &p;
    return nullptr;
}

/// Seven significant digits, as the charts' axes and CSV export do; "-" for no value.
QString number(std::optional<double> value)
{
    if (!value || std::isnan(*value))
        return QStringLiteral("-");
    return QString::number(*value, 'g', 7);
}

std::optional<double> gradientNorm(const debug::StepSummary* step, const QString& name)
{
    const debug::ParameterSummary* p = step ? parameterOf(*step, name) : nullptr;
    return p ? std::optional<double>(p->gradientNorm) : std::nullopt;
}

/// a - b when both are numbers.
std::optional<double> minus(std::optional<double> a, std::optional<double> b)
{
    if (!a || !b || std::isnan(*a) || std::isnan(*b))
        return std::nullopt;
    return *a - *b;
}

QString runLines(const ChartRun& run, const QStringList& parameters, std::int64_t step)
{
    const debug::StepSummary* s = stepOf(run, step);
    if (!s)
        return QObject::tr("%1: no step %2").arg(run.label).arg(step);
    QString text = QObject::tr("%1: loss %2, lr %3").arg(run.label, number(s->loss), number(s->learningRate));
    for (const QString& name : parameters) {
        const debug::ParameterSummary* p = parameterOf(*s, name);
        text += QObject::tr("\n  %1: gradient norm %2, weight norm %3")
                    .arg(name, number(p ? std::optional(p->gradientNorm) : std::nullopt),
                         number(p ? std::optional(p->weightNorm) : std::nullopt));
    }
    return text;
}

QString differenceLine(const ChartRun& a, const ChartRun& b, const QStringList& parameters, std::int64_t step)
{
    const debug::StepSummary* sa = stepOf(a, step);
    const debug::StepSummary* sb = stepOf(b, step);
    const auto loss = [](const debug::StepSummary* s) { return s ? std::optional(s->loss) : std::nullopt; };
    QString text = QObject::tr("%1 - %2: loss %3").arg(a.label, b.label, number(minus(loss(sa), loss(sb))));
    for (const QString& name : parameters)
        text += QObject::tr(", %1 gradient norm %2").arg(name, number(minus(gradientNorm(sa, name), gradientNorm(sb, name))));
    return text;
}

} // namespace

QString chartHoverText(const std::vector<ChartRun>& runs, const QStringList& parameters, std::int64_t step,
                       bool difference)
{
    QString text = QObject::tr("step %1").arg(step);
    for (const ChartRun& run : runs)
        text += QLatin1Char('\n') + runLines(run, parameters, step);
    if (difference && runs.size() == 2)
        text += QLatin1Char('\n') + differenceLine(runs[0], runs[1], parameters, step);
    return text;
}

} // namespace gradstep::views
