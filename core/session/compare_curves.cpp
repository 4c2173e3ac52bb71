// Two runs' curves over several steps: the first step where they part, the per-step table and
// the first divergence as JSON. SPDX-License-Identifier: MIT
#include "session/compare.h"
#include "session/compare_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace gradstep::session {

namespace {

/// |a - b| relative to the larger magnitude; 0 when both are 0 (or differ by less than 1e-12,
/// below what float32 training can tell apart). A NaN on one side only is a full difference;
/// NaN on both sides is the same behaviour.
double relativeDifference(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b) ? 0.0 : 1.0;
    if (a == b) // equal infinities too
        return 0.0;
    const double delta = std::abs(a - b);
    if (delta <= 1e-12)
        return 0.0;
    const double scale = std::max(std::abs(a), std::abs(b));
    return std::isinf(scale) ? 1.0 : delta / scale;
}

/// B's parameters matched to A's by name and, for repeated names, by their order among those
/// of that name (as diffGradients pairs them); null where B has none.
std::vector<const ParamNorms*> matchParams(const CurvePoint& a, const CurvePoint& b)
{
    std::vector<const ParamNorms*> out;
    std::map<std::string, int> seen;
    for (const ParamNorms& p : a.params) {
        int skip = seen[p.name]++;
        const ParamNorms* match = nullptr;
        for (const ParamNorms& q : b.params)
            if (q.name == p.name && skip-- == 0) {
                match = &q;
                break;
            }
        out.push_back(match);
    }
    return out;
}

/// The parameter whose gradient norms differ most at one step, and by how much.
struct LargestGap {
    std::string name;
    std::optional<double> relDiff;
};

LargestGap largestGradientGap(const CurvePoint& a, const CurvePoint& b)
{
    LargestGap gap;
    const std::vector<const ParamNorms*> match = matchParams(a, b);
    for (std::size_t i = 0; i < a.params.size(); ++i) {
        if (!match[i])
            continue;
        const double rel = relativeDifference(a.params[i].gradNorm, match[i]->gradNorm);
        if (!gap.relDiff || rel > *gap.relDiff)
            gap = {a.params[i].name, rel};
    }
    return gap;
}

std::string cell(std::optional<double> v, const char* format)
{
    if (!v)
        return "-";
    if (std::isnan(*v))
        return "nan";
    if (std::isinf(*v))
        return *v > 0 ? "inf" : "-inf";
    char text[40];
    std::snprintf(text, sizeof text, format, *v);
    return text;
}

std::string padded(const std::string& s, std::size_t width)
{
    return s.size() >= width ? s + "  " : s + std::string(width - s.size() + 2, ' ');
}

} // namespace

const char* divergenceKindName(Divergence::Kind kind)
{
    return kind == Divergence::Kind::Loss ? "loss" : "gradient";
}

std::optional<Divergence> firstDivergence(const std::vector<CurvePoint>& a,
                                          const std::vector<CurvePoint>& b, double tolerance)
{
    const std::size_t steps = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < steps; ++i) {
        const CurvePoint& pa = a[i];
        const CurvePoint& pb = b[i];
        if (pa.loss && pb.loss && relativeDifference(*pa.loss, *pb.loss) > tolerance)
            return Divergence{pa.step, Divergence::Kind::Loss, {}, pa.loss, pb.loss};
        const std::vector<const ParamNorms*> match = matchParams(pa, pb);
        for (std::size_t k = 0; k < pa.params.size(); ++k) {
            const ParamNorms& p = pa.params[k];
            if (!match[k])
                return Divergence{pa.step, Divergence::Kind::Gradient, p.name, p.gradNorm, std::nullopt};
            if (relativeDifference(p.gradNorm, match[k]->gradNorm) > tolerance)
                return Divergence{pa.step, Divergence::Kind::Gradient, p.name, p.gradNorm,
                                  match[k]->gradNorm};
        }
    }
    return std::nullopt;
}

void concludeComparison(Comparison& c)
{
    c.diff.clear();
    c.firstDivergence.reset();
    if (!c.a.error && !c.b.error) {
        c.diff = diffGradients(c.a, c.b);
        if (c.what != CompareWhat::Ranks) {
            c.firstDivergence = firstDivergence(c.a.steps, c.b.steps, c.tolerance);
        } else { // rank 0's loss is its shard's, not the full batch's (Note [The ranks what-if])
            std::vector<CurvePoint> a = c.a.steps, b = c.b.steps;
            for (auto* curve : {&a, &b})
                for (CurvePoint& p : *curve)
                    p.loss.reset();
            c.firstDivergence = firstDivergence(a, b, c.tolerance);
        }
    }
}

Json divergenceJson(const std::optional<Divergence>& d)
{
    if (!d)
        return nullptr;
    return Json(Json::Object{{"step", d->step},
                             {"kind", divergenceKindName(d->kind)},
                             {"name", d->name.empty() ? Json(nullptr) : Json(d->name)},
                             {"a", jsonNumber(d->a)},
                             {"b", jsonNumber(d->b)}});
}

std::string formatCurves(const Comparison& c)
{
    const std::size_t rows = std::max(c.a.steps.size(), c.b.steps.size());
    std::size_t nameWidth = 9;
    for (const StepFigures* f : {&c.a, &c.b})
        for (const CurvePoint& p : f->steps)
            for (const ParamNorms& n : p.params)
                nameWidth = std::max(nameWidth, n.name.size());
    std::string out = padded("step", 5) + padded("loss A", 14) + padded("loss B", 14)
                      + padded("A - B", 12) + padded("largest gradient-norm gap", nameWidth + 13)
                      + "\n";
    for (std::size_t i = 0; i < rows; ++i) {
        const CurvePoint* pa = i < c.a.steps.size() ? &c.a.steps[i] : nullptr;
        const CurvePoint* pb = i < c.b.steps.size() ? &c.b.steps[i] : nullptr;
        const std::optional<double> la = pa ? pa->loss : std::nullopt;
        const std::optional<double> lb = pb ? pb->loss : std::nullopt;
        std::string delta = "-";
        if (la && lb)
            delta = cell(*la - *lb, "%.3e");
        std::string gap = "-";
        if (pa && pb) {
            const LargestGap g = largestGradientGap(*pa, *pb);
            if (g.relDiff)
                gap = padded(g.name, nameWidth) + cell(g.relDiff, "%.3e");
        }
        std::string row = padded(std::to_string(i + 1), 5) + padded(cell(la, "%.9g"), 14)
                          + padded(cell(lb, "%.9g"), 14) + padded(delta, 12) + gap;
        if (c.firstDivergence && c.firstDivergence->step == static_cast<std::int64_t>(i + 1))
            row += "   <- parts";
        out += row + "\n";
    }
    const std::size_t both = std::min(c.a.steps.size(), c.b.steps.size());
    char tolerance[32];
    std::snprintf(tolerance, sizeof tolerance, "%g", c.tolerance);
    if (const auto& d = c.firstDivergence) {
        out += "\nfirst divergence: step " + std::to_string(d->step) + ", ";
        if (d->kind == Divergence::Kind::Loss)
            out += "the loss (" + cell(d->a, "%.9g") + " vs " + cell(d->b, "%.9g") + ")";
        else if (!d->b)
            out += "the gradient of " + d->name + " (B has none)";
        else
            out += "the gradient of " + d->name + " (norm " + cell(d->a, "%.6g") + " vs "
                   + cell(d->b, "%.6g") + ")";
        out += std::string(", beyond the relative tolerance ") + tolerance + "\n";
    } else if (both > 0) {
        out += "\nthe runs never part over " + std::to_string(both) + " step(s) (relative tolerance "
               + tolerance + ")\n";
    }
    if (c.a.steps.size() != c.b.steps.size())
        out += "A completed " + std::to_string(c.a.steps.size()) + " step(s), B "
               + std::to_string(c.b.steps.size()) + "\n";
    return out;
}

} // namespace gradstep::session
