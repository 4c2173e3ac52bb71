// A comparison's per-parameter diff, its JSON report and the table `gradstep compare` prints.
// SPDX-License-Identifier: MIT
#include "session/compare.h"
#include "session/compare_ranks.h"
#include "session/compare_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace gradstep::session {

namespace {

constexpr double kEqual = 1e-6;
constexpr double kClose = 1e-3;

Verdict verdictOf(double relDiff)
{
    if (std::isnan(relDiff))
        return Verdict::Different;
    if (relDiff <= kEqual)
        return Verdict::Equal;
    return relDiff <= kClose ? Verdict::Close : Verdict::Different;
}

// A saved run keeps its gradients' norms, not their values: the relative difference of the
// norms is then the measure (it cannot see two gradients of equal norm pointing elsewhere).
ParamDiff diffOfNorms(ParamDiff d)
{
    const double scale = std::max(std::abs(*d.normA), std::abs(*d.normB));
    const double delta = std::abs(*d.normA - *d.normB);
    d.relDiff = scale > 0.0 ? delta / scale : (delta > 0.0 ? 1.0 : 0.0);
    if (std::isnan(scale) || std::isnan(delta))
        d.relDiff = std::nan("");
    d.verdict = verdictOf(*d.relDiff);
    return d;
}

/// "[1, 2]": the multi-index of a row-major element.
std::string elementIndex(std::int64_t flat, const std::vector<std::int64_t>& shape)
{
    std::vector<std::int64_t> index(shape.size());
    for (std::size_t k = shape.size(); k-- > 0;) {
        const std::int64_t dim = std::max<std::int64_t>(1, shape[k]);
        index[k] = flat % dim;
        flat /= dim;
    }
    std::string out = "[";
    for (std::size_t k = 0; k < index.size(); ++k)
        out += (k ? ", " : "") + std::to_string(index[k]);
    return out + "]";
}

// One side known at some elements only (finite differences): the other side's values at those
// elements, compared as diffOf compares whole gradients, and the element that differs most named.
ParamDiff diffOfSampled(ParamDiff d, const ParamGrad& full, const ParamGrad& sampled, bool fullIsA)
{
    double maxAbs = -1.0, squares = 0.0, fullSquares = 0.0, sampledSquares = 0.0;
    for (std::size_t k = 0; k < sampled.indices.size() && k < sampled.values.size(); ++k) {
        const auto i = static_cast<std::size_t>(sampled.indices[k]);
        if (i >= full.values.size())
            return d;
        const double x = full.values[i], y = sampled.values[k];
        const double delta = std::abs(x - y);
        squares += delta * delta;
        fullSquares += x * x;
        sampledSquares += y * y;
        if (std::isnan(delta) || delta > maxAbs) {
            maxAbs = std::isnan(delta) ? std::nan("") : delta;
            d.worstElement = elementIndex(sampled.indices[k], sampled.shape);
            d.worstA = fullIsA ? x : y;
            d.worstB = fullIsA ? y : x;
        }
        if (std::isnan(maxAbs))
            break;
    }
    if (!d.worstElement)
        return d;
    (fullIsA ? d.normA : d.normB) = std::sqrt(fullSquares);
    (fullIsA ? d.normB : d.normA) = std::sqrt(sampledSquares);
    const double scale = std::max(std::sqrt(fullSquares), std::sqrt(sampledSquares));
    d.maxAbsDiff = maxAbs;
    d.relDiff = scale > 0.0 ? std::sqrt(squares) / scale : (squares > 0.0 ? 1.0 : 0.0);
    if (std::isnan(maxAbs) || std::isnan(scale))
        d.relDiff = std::nan("");
    d.verdict = verdictOf(*d.relDiff);
    return d;
}

ParamDiff diffOf(const ParamGrad& a, const ParamGrad& b)
{
    ParamDiff d;
    d.name = a.name;
    d.normA = a.norm;
    d.normB = b.norm;
    if (a.shape != b.shape)
        return d;
    if (!b.indices.empty() && a.indices.empty())
        return diffOfSampled(d, a, b, true);
    if (!a.indices.empty() && b.indices.empty())
        return diffOfSampled(d, b, a, false);
    const bool normsOnly = (a.values.empty() || b.values.empty()) && a.shape.size() + b.shape.size() > 0;
    if (normsOnly)
        return diffOfNorms(d);
    if (a.values.size() != b.values.size())
        return d;
    double maxAbs = 0.0, squares = 0.0;
    for (std::size_t i = 0; i < a.values.size(); ++i) {
        const double delta = std::abs(a.values[i] - b.values[i]);
        // NaN compares false with everything: carry it explicitly so it is not lost by max().
        maxAbs = std::isnan(delta) || std::isnan(maxAbs) ? std::nan("") : std::max(maxAbs, delta);
        squares += delta * delta;
    }
    const double scale = std::max(a.norm, b.norm);
    d.maxAbsDiff = maxAbs;
    d.relDiff = scale > 0.0 ? std::sqrt(squares) / scale : (squares > 0.0 ? 1.0 : 0.0);
    if (std::isnan(scale) || std::isnan(squares))
        d.relDiff = std::nan("");
    d.verdict = verdictOf(*d.relDiff);
    return d;
}

ParamDiff missing(const ParamGrad& p, bool inA)
{
    ParamDiff d;
    d.name = p.name;
    (inA ? d.normA : d.normB) = p.norm;
    return d;
}

std::string sci(std::optional<double> v)
{
    if (!v)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, "%.4e", *v);
    return text;
}

std::string fixed(std::optional<double> v, const char* format)
{
    if (!v)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, format, *v);
    return text;
}

std::string pad(const std::string& s, std::size_t width)
{
    return s.size() >= width ? s + "  " : s + std::string(width - s.size() + 2, ' ');
}

std::string where(const StepFigures& f)
{
    if (!f.errorLocation || f.errorLocation->line == 0)
        return {};
    const auto& span = *f.errorLocation;
    return " (" + (span.displayFile.empty() ? span.file : span.displayFile) + ":"
           + std::to_string(span.line) + ")";
}

std::string paramTable(const std::vector<ParamDiff>& diff)
{
    std::size_t nameWidth = 5;
    for (const ParamDiff& d : diff)
        nameWidth = std::max(nameWidth, d.name.size());
    // Element by element comparisons (fd) name the element that differs most in each gradient.
    const bool elements = std::any_of(diff.begin(), diff.end(), [](const ParamDiff& d) { return d.worstElement.has_value(); });
    std::string out = pad("param", nameWidth) + pad("norm A", 11) + pad("norm B", 11)
                      + pad("max abs diff", 12) + pad("rel diff", 11) + (elements ? "verdict    worst element\n" : "verdict\n");
    for (const ParamDiff& d : diff) {
        out += pad(d.name, nameWidth) + pad(sci(d.normA), 11) + pad(sci(d.normB), 11)
               + pad(sci(d.maxAbsDiff), 12) + pad(sci(d.relDiff), 11);
        if (elements && d.worstElement)
            out += pad(verdictName(d.verdict), 9) + *d.worstElement + " (" + sci(d.worstA) + " vs " + sci(d.worstB) + ")";
        else
            out += verdictName(d.verdict);
        out += "\n";
    }
    return out;
}

std::string figureRow(const std::string& name, const std::string& a, const std::string& b)
{
    return pad(name, 14) + pad(a, 20) + b + "\n";
}

// A side that gave no step shows "-" in every row.
std::string figuresTable(const StepFigures& a, const StepFigures& b)
{
    auto loss = [](const StepFigures& f) { return f.error ? "-" : fixed(f.loss, "%.9g"); };
    auto count = [](const StepFigures& f, std::int64_t n) {
        return f.error || f.saved ? std::string("-") : std::to_string(n);
    };
    auto seconds = [](const StepFigures& f) {
        return f.error || f.saved ? "-" : fixed(f.seconds, "%.6f");
    };
    std::string out = figureRow("", "A", "B");
    out += figureRow("loss", loss(a), loss(b));
    out += figureRow("forward passes", count(a, a.forwardPasses), count(b, b.forwardPasses));
    out += figureRow("nodes", count(a, a.nodes()), count(b, b.nodes()));
    out += figureRow("  forward", count(a, a.forwardNodes), count(b, b.forwardNodes));
    out += figureRow("  backward", count(a, a.backwardNodes), count(b, b.backwardNodes));
    out += figureRow("  update", count(a, a.updateNodes), count(b, b.updateNodes));
    out += figureRow("seconds", seconds(a), seconds(b));
    return out;
}

} // namespace

const char* verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Equal: return "equal";
    case Verdict::Close: return "close";
    case Verdict::Different: return "different";
    case Verdict::Missing: return "missing";
    }
    return "?";
}

// Gradients pair up by name and, for repeated names, by their order among those of that name.
std::vector<ParamDiff> diffGradients(const StepFigures& a, const StepFigures& b)
{
    std::vector<ParamDiff> out;
    std::vector<bool> used(b.params.size(), false);
    std::map<std::string, int> seen;
    for (const ParamGrad& p : a.params) {
        int skip = seen[p.name]++;
        const ParamGrad* match = nullptr;
        for (std::size_t i = 0; i < b.params.size() && !match; ++i)
            if (b.params[i].name == p.name && skip-- == 0) {
                match = &b.params[i];
                used[i] = true;
            }
        out.push_back(match ? diffOf(p, *match) : missing(p, true));
    }
    for (std::size_t i = 0; i < b.params.size(); ++i)
        if (!used[i])
            out.push_back(missing(b.params[i], false));
    return out;
}

Json comparisonToJson(const Comparison& c)
{
    Json diff = Json::array();
    for (const ParamDiff& d : c.diff)
        diff.push_back(Json(Json::Object{{"name", d.name},
                                         {"norm_a", jsonNumber(d.normA)},
                                         {"norm_b", jsonNumber(d.normB)},
                                         {"max_abs_diff", jsonNumber(d.maxAbsDiff)},
                                         {"rel_diff", jsonNumber(d.relDiff)},
                                         {"verdict", verdictName(d.verdict)},
                                         {"worst_element", d.worstElement ? Json(*d.worstElement) : Json(nullptr)},
                                         {"worst_a", jsonNumber(d.worstA)},
                                         {"worst_b", jsonNumber(d.worstB)}}));
    return Json(Json::Object{{"what", compareWhatName(c.what)},
                             {"a", sideToJson(c.a, false)},
                             {"b", sideToJson(c.b, false)},
                             {"diff", std::move(diff)},
                             {"explanation", explainComparison(c)},
                             {"steps", c.steps},
                             {"tolerance", c.tolerance},
                             {"first_divergence", divergenceJson(c.firstDivergence)}});
}

namespace {

// The verdict of an fd comparison names the worst element over every gradient, as gradcheck does.
std::string explainFiniteDifferences(const std::vector<ParamDiff>& diff, std::size_t differ)
{
    const auto badness = [](const ParamDiff& d) {
        return std::isnan(*d.relDiff) ? std::numeric_limits<double>::infinity() : *d.relDiff;
    };
    const ParamDiff* worst = nullptr;
    for (const ParamDiff& d : diff)
        if (d.worstElement && d.relDiff && (!worst || badness(d) > badness(*worst)))
            worst = &d;
    if (!worst)
        return "No gradient had a float element to check by finite differences.";
    const std::string element = worst->name + *worst->worstElement + ": analytic " + sci(worst->worstA)
                                + ", finite differences " + sci(worst->worstB);
    if (differ == 0)
        return "The analytic gradients match float64 central differences at the sampled elements (worst "
               + element + ", relative difference " + sci(worst->relDiff) + ").";
    return std::to_string(differ) + " of " + std::to_string(diff.size())
           + " gradients disagree with float64 central differences; the worst element is " + element
           + " (relative difference of " + worst->name + " " + sci(worst->relDiff)
           + "): the backward rule of an op it flows through (a custom bprop, a hook or a custom op) is wrong there.";
}

} // namespace

std::string explainComparison(const Comparison& c)
{
    if (!c.ok())
        return {};
    std::size_t differ = 0;
    for (const ParamDiff& d : c.diff)
        differ += d.verdict == Verdict::Different || d.verdict == Verdict::Missing;
    const std::string gradients = differ == 0 ? "the gradients agree"
                                              : std::to_string(differ) + " of " + std::to_string(c.diff.size())
                                                    + " gradients differ";
    switch (c.what) {
    case CompareWhat::GradApi:
        if (c.a.forwardPasses == c.b.forwardPasses && c.a.forwardPasses > 1)
            return "The script already computes the value apart from the gradients (the grad-only fallback: "
                   "loss = fn(...), then grad(fn)(...)), so both sides run the forward pass "
                   + std::to_string(c.a.forwardPasses) + " times per step and flipping the gradient API changes "
                   "nothing; one value_and_grad call in place of the two would run it once.";
        if (c.a.forwardPasses != c.b.forwardPasses)
            return "The fallback runs the forward pass " + std::to_string(c.b.forwardPasses) + " times per step "
                   "against value_and_grad's " + std::to_string(c.a.forwardPasses) + "; " + gradients
                   + (differ == 0 ? " (nothing random in the forward)." : " (something random in the forward, such as "
                                                                        "Dropout, drew twice).");
        return "Both forms run the forward pass " + std::to_string(c.a.forwardPasses) + " time(s) per step; "
               + gradients + ".";
    case CompareWhat::HasAux:
        if (differ == 0)
            return "has_aux changes nothing here: " + gradients + " (the function returns one output, or its "
                   "other outputs do not depend on the weights).";
        return "With has_aux off the extra outputs are differentiated as if part of the loss: " + gradients
               + ". Forcing the wrong setting gives wrong gradients without an error.";
    case CompareWhat::Mode:
        return "Graph mode compiles what PyNative runs op by op: " + gradients
               + (differ == 0 ? "." : "; a difference here is a bug in one of the modes or randomness drawn differently.");
    case CompareWhat::Api:
        return "Both API profiles run the script: " + gradients + ".";
    case CompareWhat::Scripts:
        return "At the first step " + gradients + ".";
    case CompareWhat::Saved:
        return "At the first step, compared with the saved run by their norms, " + gradients + ".";
    case CompareWhat::FiniteDifferences:
        return explainFiniteDifferences(c.diff, differ);
    case CompareWhat::Ranks:
        return explainRanks(c);
    case CompareWhat::Amp:
        if (std::any_of(c.diff.begin(), c.diff.end(), [](const ParamDiff& d) { return d.normB && !std::isfinite(*d.normB); }))
            return "In mixed precision this step's gradients overflowed (inf or NaN): with loss scaling the update "
                   "is skipped and the scale lowered, so compare later steps (--steps N) to see the cost once the "
                   "scale fits; gradstep debug --watch overflow names the node that overflowed.";
        if (differ == 0)
            return "Half precision costs nothing visible here: " + gradients + ".";
        return "Half precision changes the gradients: " + gradients
               + ". Small differences are float16 rounding; large ones point at an overflow, an underflow to zero "
                 "or a layer that should stay in float32 (gradstep debug --watch overflow finds the node).";
    }
    return {};
}

std::string formatComparison(const Comparison& c)
{
    std::string out = std::string("compare ") + compareWhatName(c.what) + ": A = " + c.a.label
                      + ", B = " + c.b.label + "\n\n";
    for (const StepFigures* f : {&c.a, &c.b}) {
        const char* side = f == &c.a ? "A" : "B";
        if (f->error)
            out += std::string(side) + " (" + f->label + ") gave no step: " + *f->error + where(*f)
                   + "\n";
        if (f->laterError)
            out += std::string(side) + " (" + f->label + ") failed after step "
                   + std::to_string(std::max<std::size_t>(1, f->steps.size())) + ": " + *f->laterError + "\n";
    }
    if (c.a.error || c.a.laterError || c.b.error || c.b.laterError)
        out += "\n";
    if (c.ok())
        out += paramTable(c.diff) + "\n";
    out += figuresTable(c.a, c.b);
    if (const std::string why = explainComparison(c); !why.empty())
        out += "\n" + why + "\n";
    if (c.steps > 1)
        out += "\n" + formatCurves(c);
    return out;
}

} // namespace gradstep::session
