// SPDX-License-Identifier: MIT
#include "migrate/compared_pairs.h"

namespace gradstep::migrate {

const char* pairStatusName(PairStatus status)
{
    switch (status) {
    case PairStatus::Equal: return "equal";
    case PairStatus::WithinTolerance: return "within tolerance";
    case PairStatus::Diverges: return "diverges";
    case PairStatus::Unmatched: return "unmatched";
    }
    return "?";
}

namespace {

/// The capture key of `module`'s `call`-th output (its tensor `element` of a tuple) in `step`, or
/// "" when it recorded none.
std::string forwardKey(const Capture& c, std::int64_t step, const std::string& module, std::int64_t call,
                       const std::string& element)
{
    const Json* forward = c.doc().find("forward");
    if (!forward || !forward->isArray())
        return {};
    for (const Json& e : forward->asArray())
        if (e["step"].asInt() == step && e["module"].asString() == module && e["call"].asInt() == call
            && (e.find("element") ? e["element"].asString() : std::string()) == element)
            return e["tensor"].asString();
    return {};
}

std::string lossClass(const Capture& c)
{
    const Json* loss = c.doc().find("loss");
    return loss && loss->isObject() ? (*loss)["class"].asString() : std::string("loss");
}

/// The pair's keys measured: its status and differences.
void measure(ComparedPair& pair, const Capture& torch, const Capture& ms, double tolerance, double scale)
{
    const auto t = pair.torchKey.empty() ? std::nullopt : torch.tensor(pair.torchKey);
    const auto m = pair.msKey.empty() ? std::nullopt : ms.tensor(pair.msKey);
    if (!t)
        pair.torchKey.clear();
    if (!m)
        pair.msKey.clear();
    if (!t || !m) {
        pair.status = PairStatus::Unmatched;
        return;
    }
    // Parameters of a transposed layout hold the same number of values; anything else must agree.
    const bool sameShape = pair.transpose ? t->values.size() == m->values.size() : t->shape == m->shape;
    if (!sameShape) {
        pair.status = PairStatus::Diverges;
        return;
    }
    const Difference d = difference(t->values, m->values, pair.transpose, t->shape, scale);
    pair.maxAbsDiff = d.maxAbs;
    pair.relDiff = d.relative;
    pair.status = d.maxAbs == 0 ? PairStatus::Equal
                  : d.relative <= tolerance ? PairStatus::WithinTolerance
                                            : PairStatus::Diverges;
}

} // namespace

std::vector<ComparedPair> comparedPairs(const Capture& torch, const Capture& ms, const MigrationResult& result,
                                        std::int64_t step)
{
    std::vector<ComparedPair> pairs;
    const std::string s = std::to_string(step);
    for (const LayerRow& row : result.layers) {
        ComparedPair p;
        p.kind = DivergenceKind::Forward;
        p.torch = p.torchModule = row.torch;
        p.mindspore = p.msModule = row.mindspore;
        p.call = row.call;
        p.msCall = row.msCall;
        p.element = row.element;
        p.torchKey = forwardKey(torch, step, row.torch, row.call, row.element);
        p.msKey = forwardKey(ms, step, row.mindspore, row.msCall, row.element);
        measure(p, torch, ms, result.tolerance, result.forwardScale);
        pairs.push_back(std::move(p));
    }
    {
        ComparedPair p;
        p.kind = DivergenceKind::Loss;
        p.torch = lossClass(torch);
        p.mindspore = lossClass(ms);
        p.torchKey = p.msKey = "loss/" + s;
        measure(p, torch, ms, result.tolerance, 0);
        if (!p.torchKey.empty() || !p.msKey.empty())
            pairs.push_back(std::move(p));
    }
    const auto paramPair = [&](const ParamRow& row, DivergenceKind kind, const std::string& prefix, double scale) {
        ComparedPair p;
        p.kind = kind;
        p.torch = row.torch;
        p.mindspore = row.mindspore;
        p.torchModule = row.torchModule;
        p.msModule = row.msModule;
        p.transpose = row.transpose;
        p.torchKey = prefix + row.torch;
        p.msKey = prefix + row.mindspore;
        measure(p, torch, ms, result.tolerance, scale);
        return p;
    };
    // Gradients in the order backward computes them (last layer first), as the comparison did.
    for (auto it = result.params.rbegin(); it != result.params.rend(); ++it)
        if (!it->buffer)
            pairs.push_back(paramPair(*it, DivergenceKind::Gradient, "grad/" + s + "/", result.gradScale));
    for (const ParamRow& row : result.params)
        pairs.push_back(paramPair(row, row.buffer ? DivergenceKind::State : DivergenceKind::Update, "after/" + s + "/",
                                  result.paramScale));
    return pairs;
}

std::optional<std::size_t> firstDivergencePair(const std::vector<ComparedPair>& pairs, const MigrationResult& result)
{
    if (!result.firstDivergence)
        return std::nullopt;
    const Divergence& d = *result.firstDivergence;
    DivergenceKind kind = d.kind;
    if (kind == DivergenceKind::Shape || kind == DivergenceKind::Error)
        kind = DivergenceKind::Forward;
    // The first pair of that kind and those names that is not equal (a module called twice
    // diverges at one of its calls); else the first of those names.
    std::optional<std::size_t> named;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const ComparedPair& p = pairs[i];
        const bool names = p.kind == kind
                           && (p.torch == d.torch || (d.kind == DivergenceKind::Error && p.mindspore == d.mindspore));
        if (!names)
            continue;
        if (p.status == PairStatus::Diverges || p.status == PairStatus::Unmatched)
            return i;
        if (!named)
            named = i;
    }
    return named;
}

} // namespace gradstep::migrate
