// Watchpoints. SPDX-License-Identifier: MIT
#include "debug/watchpoints.h"

#include "io/number_format.h"

#include <algorithm>
#include <array>

namespace gradstep::debug {

namespace {

using Kind = Watchpoint::Kind;

struct KindInfo {
    Kind kind;
    std::string_view key;   ///< the --watch spelling
    std::string_view title; ///< the start of a hit's message
    bool needsValue;
    double defaultValue;
};

constexpr std::array<KindInfo, 11> kKinds{{
    {Kind::NanInf, "nan", "NaN/Inf", false, 0.0},
    {Kind::HalfPrecisionOverflow, "overflow", "half-precision", false, 0.0},
    {Kind::Above, "above", "tensor above threshold", true, 0.0},
    {Kind::Below, "below", "tensor below threshold", true, 0.0},
    {Kind::GradientVanishing, "vanishing", "gradient vanishing", false, 1e-7},
    {Kind::GradientExploding, "exploding", "gradient exploding", false, 1e3},
    {Kind::WeightUnchanged, "unchanged", "weight unchanged", false, 1e-8},
    {Kind::WeightChangeAbove, "change_above", "weight change above threshold", true, 0.0},
    {Kind::WeightChangeBelow, "change_below", "weight change below threshold", true, 0.0},
    {Kind::ActivationSaturation, "saturation", "activation saturation", false, 0.9},
    {Kind::DeadRelu, "dead_relu", "dead ReLU", false, 0.9},
}};

const KindInfo& info(Kind kind)
{
    for (const KindInfo& k : kKinds)
        if (k.kind == kind)
            return k;
    return kKinds[0];
}

std::string keys()
{
    std::string s;
    for (const KindInfo& k : kKinds)
        s += (s.empty() ? "" : ", ") + std::string(k.key);
    return s;
}

struct Finding {
    std::string quantity;
    double value;
    std::string_view symbol;
};

WatchHit makeHit(const Watchpoint& wp, const NodeRecord& r, std::size_t output, const Finding& f)
{
    const TensorRecord& out = r.outputs[output];
    WatchHit hit;
    hit.watchpointId = wp.id;
    hit.kind = wp.kind;
    hit.step = r.step;
    hit.recordSeq = r.seq;
    hit.node = r.fullName;
    hit.location = r.location;
    hit.tensor = out.id.toString();
    hit.quantity = f.quantity;
    hit.value = f.value;
    hit.threshold = wp.threshold;
    std::string what = "output " + std::to_string(output) + " of " + r.where();
    if (out.gradientOf)
        what += " (the gradient of " + out.gradientOf->toString() + ")";
    hit.message = std::string(info(wp.kind).title) + ": " + what + " has " + f.quantity + " "
                  + formatNumber(f.value) + " " + std::string(f.symbol) + " " + formatNumber(wp.threshold);
    return hit;
}

bool isSaturating(const std::string& op) { return op == "Sigmoid" || op == "Tanh"; }

double saturatedShare(const std::string& op, const TensorStats& s)
{
    // Sigmoid saturates at 0 and 1; tanh at -1 and 1 (never near 0).
    const std::int64_t n = op == "Sigmoid" ? s.nearZeroCount + s.nearOneCount : s.nearOneCount;
    return static_cast<double>(n) / static_cast<double>(s.count);
}

std::optional<Finding> examine(const Watchpoint& wp, const NodeRecord& r, const TensorStats& s)
{
    const double t = wp.threshold;
    const bool backward = r.phase == Phase::Backward;
    switch (wp.kind) {
    case Kind::NanInf:
        if (s.allFinite())
            return std::nullopt;
        return Finding{"nonfinite_count", static_cast<double>(s.nonFiniteCount()), ">"};
    case Kind::Above:
    case Kind::Below: {
        const Compare c = wp.kind == Kind::Above ? Compare::Greater : Compare::Less;
        const double v = statValue(s, wp.stat);
        if (!compareHolds(v, c, t))
            return std::nullopt;
        return Finding{std::string(statName(wp.stat)), v, compareSymbol(c)};
    }
    case Kind::GradientVanishing:
        if (!backward || !isFloating(s.dtype) || !s.allFinite() || !(s.l2Norm < t))
            return std::nullopt;
        return Finding{"l2", s.l2Norm, "<"};
    case Kind::GradientExploding:
        if (!backward)
            return std::nullopt;
        if (!s.allFinite())
            return Finding{"nonfinite_count", static_cast<double>(s.nonFiniteCount()), ">"};
        if (!(s.l2Norm > t))
            return std::nullopt;
        return Finding{"l2", s.l2Norm, ">"};
    case Kind::ActivationSaturation:
        if (r.phase != Phase::Forward || !isSaturating(r.op) || saturatedShare(r.op, s) <= t)
            return std::nullopt;
        return Finding{"saturated_share", saturatedShare(r.op, s), ">"};
    case Kind::DeadRelu:
        if (r.phase != Phase::Forward || r.op != "ReLU" || s.zeroShare() <= t)
            return std::nullopt;
        return Finding{"zero_share", s.zeroShare(), ">"};
    case Kind::WeightUnchanged:
    case Kind::WeightChangeAbove:
    case Kind::WeightChangeBelow:
    case Kind::HalfPrecisionOverflow: break; // not a statistic: halfPrecisionHit
    }
    return std::nullopt;
}

/// Named as the NaN root cause names its node: "Float16 overflow first produced by Cast at
/// backward of Net/Cast (main.py:12:5), backward phase, step 1: output 0: 32 elements overflowed
/// Float16 to inf; in float32 element 3 is 1.3e+05 (largest |x| 4.7e+05)".
WatchHit halfPrecisionHit(const Watchpoint& wp, const NodeRecord& r, const HalfPrecisionIssue& issue)
{
    WatchHit hit;
    hit.watchpointId = wp.id;
    hit.kind = wp.kind;
    hit.step = r.step;
    hit.recordSeq = r.seq;
    hit.node = r.fullName;
    hit.location = r.location;
    if (issue.output < r.outputs.size())
        hit.tensor = r.outputs[issue.output].id.toString();
    hit.quantity = std::string(issue.kindName()) + "_count";
    hit.value = static_cast<double>(issue.count);
    hit.threshold = wp.threshold;
    hit.message = std::string(dtypeName(issue.dtype)) + " " + issue.kindName() + " first produced by " + r.op
                  + " at " + r.where() + ", " + std::string(phaseName(r.phase)) + " phase, step "
                  + std::to_string(r.step) + ": output " + std::to_string(issue.output) + ": " + issue.describe();
    return hit;
}

WatchHit stepHit(const Watchpoint& wp, const StepSummary& step, const ParameterSummary& p,
                 const std::string& tensor, const Finding& f)
{
    WatchHit hit;
    hit.watchpointId = wp.id;
    hit.kind = wp.kind;
    hit.step = step.step;
    hit.node = p.name;
    hit.tensor = tensor;
    hit.quantity = f.quantity;
    hit.value = f.value;
    hit.threshold = wp.threshold;
    hit.message = std::string(info(wp.kind).title) + ": " + tensor + " at the end of step "
                  + std::to_string(step.step) + " has " + f.quantity + " " + formatNumber(f.value)
                  + " " + std::string(f.symbol) + " " + formatNumber(wp.threshold);
    return hit;
}

std::optional<std::pair<std::string, Finding>> examineParameter(const Watchpoint& wp, const ParameterSummary& p)
{
    const double t = wp.threshold;
    const std::string grad = "grad of param:" + p.name;
    const std::string weight = "param:" + p.name;
    const bool hasGrad = p.gradient.count > 0;
    switch (wp.kind) {
    case Kind::NanInf:
        if (p.weight.allFinite())
            return std::nullopt;
        return std::pair{weight, Finding{"nonfinite_count", static_cast<double>(p.weight.nonFiniteCount()), ">"}};
    case Kind::GradientVanishing:
        if (!hasGrad || !(p.gradientNorm < t))
            return std::nullopt;
        return std::pair{grad, Finding{"l2", p.gradientNorm, "<"}};
    case Kind::GradientExploding:
        if (!hasGrad || (p.gradient.allFinite() && !(p.gradientNorm > t)))
            return std::nullopt;
        if (!p.gradient.allFinite())
            return std::pair{grad, Finding{"nonfinite_count", static_cast<double>(p.gradient.nonFiniteCount()), ">"}};
        return std::pair{grad, Finding{"l2", p.gradientNorm, ">"}};
    case Kind::WeightUnchanged:
        if (!p.updated || !(p.weightChange <= t))
            return std::nullopt;
        return std::pair{weight, Finding{"weight_change", p.weightChange, "<="}};
    case Kind::WeightChangeAbove:
        if (!p.updated || !(p.weightChange > t))
            return std::nullopt;
        return std::pair{weight, Finding{"weight_change", p.weightChange, ">"}};
    case Kind::WeightChangeBelow:
        if (!p.updated || !(p.weightChange < t))
            return std::nullopt;
        return std::pair{weight, Finding{"weight_change", p.weightChange, "<"}};
    case Kind::Above:
    case Kind::Below:
    case Kind::ActivationSaturation:
    case Kind::DeadRelu:
    case Kind::HalfPrecisionOverflow: break;
    }
    return std::nullopt;
}

[[noreturn]] void bad(std::string_view item, const std::string& why)
{
    throw ValueError("watchpoint '" + std::string(item) + "': " + why);
}

} // namespace

std::string Watchpoint::toString() const
{
    const KindInfo& k = info(kind);
    std::string s(k.key);
    if (kind == Kind::Above || kind == Kind::Below)
        s += ":" + std::string(statName(stat));
    if (kind != Kind::NanInf && kind != Kind::HalfPrecisionOverflow)
        s += "=" + formatNumber(threshold);
    return s;
}

std::vector<WatchHit> checkRecord(const Watchpoint& wp, const NodeRecord& record)
{
    std::vector<WatchHit> hits;
    if (wp.kind == Kind::HalfPrecisionOverflow) {
        if (record.halfPrecision)
            hits.push_back(halfPrecisionHit(wp, record, *record.halfPrecision));
        return hits;
    }
    for (std::size_t i = 0; i < record.outputs.size(); ++i) {
        const TensorRecord& out = record.outputs[i];
        if (!out.defined || out.stats.count == 0)
            continue;
        if (std::optional<Finding> f = examine(wp, record, out.stats))
            hits.push_back(makeHit(wp, record, i, *f));
    }
    return hits;
}

std::vector<WatchHit> checkStep(const Watchpoint& wp, const StepSummary& step)
{
    std::vector<WatchHit> hits;
    for (const ParameterSummary& p : step.parameters)
        if (auto found = examineParameter(wp, p))
            hits.push_back(stepHit(wp, step, p, found->first, found->second));
    return hits;
}

Watchpoint parseWatchpoint(std::string_view item)
{
    if (item.empty())
        bad(item, "empty item, expected one of " + keys());
    const std::size_t eq = item.find('=');
    std::string_view key = item.substr(0, eq);
    Watchpoint wp;
    if (key == "inf" || key == "naninf")
        key = "nan";
    if (key.substr(0, 6) == "above:" || key.substr(0, 6) == "below:") {
        const std::string_view name = key.substr(6);
        const std::optional<Stat> stat = parseStat(name);
        if (!stat)
            bad(item, "unknown statistic '" + std::string(name) + "', expected one of " + statNames());
        wp.stat = *stat;
        key = key.substr(0, 5);
    }
    const auto found = std::find_if(kKinds.begin(), kKinds.end(), [&](const KindInfo& k) { return k.key == key; });
    if (found == kKinds.end())
        bad(item, "unknown condition '" + std::string(key) + "', expected one of " + keys());
    wp.kind = found->kind;
    wp.threshold = found->defaultValue;
    if (eq == std::string_view::npos) {
        if (found->needsValue)
            bad(item, "needs a threshold, e.g. " + std::string(key) + "=1e3");
        return wp;
    }
    if (wp.kind == Kind::NanInf || wp.kind == Kind::HalfPrecisionOverflow)
        bad(item, "takes no threshold");
    const std::optional<double> v = parseNumber(item.substr(eq + 1));
    if (!v)
        bad(item, "threshold '" + std::string(item.substr(eq + 1)) + "' is not a number");
    wp.threshold = *v;
    return wp;
}

std::vector<Watchpoint> parseWatchpoints(std::string_view list)
{
    std::vector<Watchpoint> result;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = list.find(',', start);
        result.push_back(parseWatchpoint(list.substr(start, comma - start)));
        if (comma == std::string_view::npos)
            return result;
        start = comma + 1;
    }
}

int WatchpointSet::add(Watchpoint wp)
{
    wp.id = m_nextId++;
    m_watchpoints.push_back(wp);
    return wp.id;
}

std::vector<int> WatchpointSet::add(std::string_view list)
{
    std::vector<int> ids;
    for (Watchpoint& wp : parseWatchpoints(list))
        ids.push_back(add(std::move(wp)));
    return ids;
}

bool WatchpointSet::remove(int id)
{
    return std::erase_if(m_watchpoints, [id](const Watchpoint& wp) { return wp.id == id; }) > 0;
}

bool WatchpointSet::setEnabled(int id, bool enabled)
{
    for (Watchpoint& wp : m_watchpoints)
        if (wp.id == id) {
            wp.enabled = enabled;
            return true;
        }
    return false;
}

std::vector<WatchHit> WatchpointSet::check(const NodeRecord& record)
{
    std::vector<WatchHit> hits;
    for (Watchpoint& wp : m_watchpoints) {
        if (!wp.enabled)
            continue;
        std::vector<WatchHit> found = checkRecord(wp, record);
        wp.hitCount += static_cast<int>(found.size());
        hits.insert(hits.end(), found.begin(), found.end());
    }
    return hits;
}

std::vector<WatchHit> WatchpointSet::checkStep(const StepSummary& step)
{
    std::vector<WatchHit> hits;
    for (Watchpoint& wp : m_watchpoints) {
        if (!wp.enabled)
            continue;
        std::vector<WatchHit> found = debug::checkStep(wp, step);
        wp.hitCount += static_cast<int>(found.size());
        hits.insert(hits.end(), found.begin(), found.end());
    }
    return hits;
}

} // namespace gradstep::debug
