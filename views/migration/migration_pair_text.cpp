// SPDX-License-Identifier: MIT
#include "views/migration/migration_pair_text.h"

namespace gradstep::views {

namespace {

using migrate::ComparedPair;
using migrate::DivergenceKind;
using migrate::PairStatus;

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// Four significant digits: enough to tell a rounding difference from a divergence.
QString num(double v)
{
    return QString::number(v, 'g', 4);
}

/// "conv1 (Conv2d)" for a module, the name itself for a parameter or a loss.
QString nameOf(const std::string& name, const std::string& module, const migrate::Capture& c, DivergenceKind kind)
{
    if (kind != DivergenceKind::Forward)
        return q(name);
    const Json* info = c.module(module);
    const QString shown = name.empty() ? QStringLiteral("(model)") : q(name);
    return info ? shown + QStringLiteral(" (") + q((*info)["class"].asString()) + QLatin1Char(')') : shown;
}

Tensor tensorOf(const migrate::TensorView& view)
{
    return Tensor::fromDoubles(Shape(view.shape), std::vector<double>(view.values.begin(), view.values.end()),
                               DType::Float64);
}

InspectedTensor inspected(const QString& label, Tensor tensor)
{
    InspectedTensor t;
    t.label = label;
    t.stats = debug::computeStats(tensor);
    t.snapshot = std::move(tensor);
    return t;
}

} // namespace

QString pairKindText(DivergenceKind kind)
{
    switch (kind) {
    case DivergenceKind::Forward:
    case DivergenceKind::Shape:
    case DivergenceKind::Error: return QStringLiteral("forward output");
    case DivergenceKind::Loss: return QStringLiteral("loss");
    case DivergenceKind::Gradient: return QStringLiteral("gradient");
    case DivergenceKind::Update: return QStringLiteral("after the update");
    case DivergenceKind::State: return QStringLiteral("buffer after the update");
    }
    return QString();
}

QString pairHeading(const ComparedPair& pair, std::size_t index, std::size_t count, std::int64_t step,
                    const migrate::Capture& torch, const migrate::Capture& ms)
{
    const QString kind = pair.element.empty() ? pairKindText(pair.kind)
                                              : pairKindText(pair.kind) + QStringLiteral(" element ") + q(pair.element);
    return QStringLiteral("step %1 · %2 / %3 · %4 · %5 ↔ %6 · %7")
        .arg(step)
        .arg(index + 1)
        .arg(count)
        .arg(kind, nameOf(pair.torch, pair.torchModule, torch, pair.kind),
             nameOf(pair.mindspore, pair.msModule, ms, pair.kind), QLatin1String(migrate::pairStatusName(pair.status)));
}

QString pairExplanation(const ComparedPair& pair, const migrate::MigrationResult& result, bool first,
                        const migrate::Capture& torch, const migrate::Capture& ms)
{
    QString text;
    const auto t = pair.torchKey.empty() ? std::nullopt : torch.tensor(pair.torchKey);
    const auto m = pair.msKey.empty() ? std::nullopt : ms.tensor(pair.msKey);
    switch (pair.status) {
    case PairStatus::Equal:
        text = QStringLiteral("Equal: the same values on both sides.");
        break;
    case PairStatus::WithinTolerance:
        text = QStringLiteral("Within tolerance: max abs diff %1, relative %2 (tolerance %3).")
                   .arg(num(*pair.maxAbsDiff), num(*pair.relDiff), num(result.tolerance));
        break;
    case PairStatus::Diverges:
        text = pair.relDiff ? QStringLiteral("Diverges: max abs diff %1, relative %2 (tolerance %3).")
                                  .arg(num(*pair.maxAbsDiff), num(*pair.relDiff), num(result.tolerance))
                            : QStringLiteral("Diverges: PyTorch's tensor has shape %1, MindSpore's %2.")
                                  .arg(q(migrate::shapeText(t->shape)), q(migrate::shapeText(m->shape)));
        break;
    case PairStatus::Unmatched:
        text = !t && !m ? QStringLiteral("Unmatched: neither side recorded this tensor.")
               : !m     ? QStringLiteral("Unmatched: MindSpore recorded no tensor here (the port raised before, or "
                                         "computed it elsewhere).")
                        : QStringLiteral("Unmatched: PyTorch recorded no tensor here.");
        break;
    }
    if (first && result.firstDivergence) {
        const migrate::Divergence& d = *result.firstDivergence;
        text = QStringLiteral("First divergence (%1, step %2): %3\n\n%4")
                   .arg(QLatin1String(migrate::divergenceKindName(d.kind)))
                   .arg(d.step)
                   .arg(q(d.explanation), text);
    }
    return text;
}

std::vector<InspectedTensor> pairTensors(const ComparedPair& pair, const migrate::Capture& torch,
                                         const migrate::Capture& ms)
{
    std::vector<InspectedTensor> out;
    const auto t = pair.torchKey.empty() ? std::nullopt : torch.tensor(pair.torchKey);
    const auto m = pair.msKey.empty() ? std::nullopt : ms.tensor(pair.msKey);
    if (t)
        out.push_back(inspected(QStringLiteral("PyTorch: %1 (%2)").arg(q(pair.torch), q(t->dtype)), tensorOf(*t)));
    if (m)
        out.push_back(inspected(QStringLiteral("MindSpore: %1 (%2)").arg(q(pair.mindspore), q(m->dtype)), tensorOf(*m)));
    if (t && m && t->values.size() == m->values.size() && (pair.transpose || t->shape == m->shape)) {
        // MindSpore's values in PyTorch's layout (a transposed 2-D weight read across).
        const bool across = pair.transpose && t->shape.size() == 2;
        const std::size_t rows = across ? std::size_t(t->shape[0]) : 0, cols = across ? std::size_t(t->shape[1]) : 0;
        std::vector<double> diff(t->values.size());
        for (std::size_t i = 0; i < diff.size(); ++i)
            diff[i] = (across ? m->values[(i % cols) * rows + i / cols] : m->values[i]) - t->values[i];
        out.push_back(inspected(QStringLiteral("difference: MindSpore − PyTorch"),
                                Tensor::fromDoubles(Shape(t->shape), diff, DType::Float64)));
    }
    return out;
}

} // namespace gradstep::views
