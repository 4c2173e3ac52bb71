// Comparing the two captures step by step, in the order the computation ran: a port that crashes
// a few layers after the real cause is reported at the cause, because the forward outputs
// recorded before the error are compared first. SPDX-License-Identifier: MIT
#include "migrate/comparison.h"

#include "migrate/call_pitfalls.h"
#include "migrate/initial_values.h"
#include "migrate/module_classes.h"
#include "migrate/pitfalls.h"

#include "io/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

namespace gradstep::migrate {

const char* divergenceKindName(DivergenceKind kind)
{
    switch (kind) {
    case DivergenceKind::Shape: return "shape";
    case DivergenceKind::Forward: return "forward";
    case DivergenceKind::Loss: return "loss";
    case DivergenceKind::Gradient: return "gradient";
    case DivergenceKind::Update: return "update";
    case DivergenceKind::State: return "state";
    case DivergenceKind::Error: return "error";
    }
    return "?";
}

namespace {

struct Event {
    std::string module;
    std::int64_t call = 0;
    std::string tensor;
    std::string element; ///< a tuple output's tensor by position; empty for a tensor output
    std::int64_t index = 0; ///< its place among the step's outputs (the N of fwd/STEP/N)
};

std::vector<Event> eventsOf(const Capture& c, std::int64_t step)
{
    std::vector<Event> out;
    const Json* forward = c.doc().find("forward");
    if (!forward || !forward->isArray())
        return out;
    for (const Json& e : forward->asArray())
        if (e["step"].asInt() == step) {
            const std::string& key = e["tensor"].asString();
            out.push_back({e["module"].asString(), e["call"].asInt(), key,
                           e.find("element") ? e["element"].asString() : std::string(),
                           std::atoll(key.c_str() + key.rfind('/') + 1)});
        }
    return out;
}

double largestMagnitude(const Capture& c, const std::string& prefix)
{
    double scale = 0;
    for (const auto& [key, entry] : c.doc()["tensors"].asObject()) {
        if (key.rfind(prefix, 0) != 0)
            continue;
        const std::optional<TensorView> view = c.tensor(key);
        for (double v : view->values)
            if (std::isfinite(v))
                scale = std::max(scale, std::abs(v));
    }
    return scale;
}

std::string join(const std::vector<std::string>& parts)
{
    std::string out;
    for (const std::string& p : parts)
        out += (out.empty() ? "" : "; ") + p;
    return out;
}

std::string valuesNote(const TensorView& t, const TensorView& m, const Difference& d)
{
    const Distribution a = distributionOf(t.values), b = distributionOf(m.values);
    return "no known pitfall explains it: PyTorch's values have mean " + formatNumber(a.mean) + " and range ["
           + formatNumber(a.min) + ", " + formatNumber(a.max) + "], MindSpore's mean " + formatNumber(b.mean)
           + " and range [" + formatNumber(b.min) + ", " + formatNumber(b.max) + "] (max abs diff "
           + formatNumber(d.maxAbs) + ")";
}

/// Which tensor of a tuple output parted ("output element 1.0: "), or nothing for a tensor output.
std::string elementNote(const std::string& element)
{
    return element.empty() ? std::string() : "output element " + element + ": ";
}

/// The comparison in progress: the first divergence found so far, and the rows it fills.
class Comparer {
public:
    Comparer(const Capture& t, const Capture& m, const CompareOptions& options, const std::string& msError)
        : m_t(t), m_m(m), m_options(options), m_msError(msError)
    {
        m_tParams = paramInfos(t.doc()["params"], t.doc()["modules"]);
        m_mParams = paramInfos(m.doc()["params"], m.doc()["modules"]);
        m_result.weightsCopied = options.weightsCopied;
        m_forwardScale = largestMagnitude(t, "fwd/");
        m_gradScale = largestMagnitude(t, "grad/");
        m_paramScale = largestMagnitude(t, "after/");
        m_result.tolerance = options.tolerance;
        m_result.forwardScale = m_forwardScale;
        m_result.gradScale = m_gradScale;
        m_result.paramScale = m_paramScale;
    }

    MigrationResult run()
    {
        match();
        const std::int64_t steps = std::max<std::int64_t>(1, std::max(m_t.steps(), m_m.steps()));
        m_result.steps = std::min(m_t.steps(), m_m.steps());
        for (std::int64_t step = 1; step <= steps && !m_result.firstDivergence; ++step) {
            compareForward(step);
            if (step == 1)
                errorDivergence();
            compareLoss(step);
            compareParameters(step);
        }
        if (!m_options.weightsCopied) {
            m_result.initial = compareInitialValues(m_t, m_m, m_pairs, m_tParams, m_toMs);
            // the initial values are then the cause: the divergence names those that differ
            if (const std::string differing = differingInitialisers(m_result.initial);
                m_result.firstDivergence && !differing.empty())
                m_result.firstDivergence->explanation += "; initial values that differ: " + differing;
        }
        m_result.diverges = m_result.firstDivergence.has_value();
        return std::move(m_result);
    }

private:
    void match()
    {
        m_pairs = matchParameters(m_tParams, m_mParams, m_options.userMap);
        std::vector<std::string> tOrder, mOrder;
        for (const Event& e : eventsOf(m_t, 1))
            if (std::find(tOrder.begin(), tOrder.end(), e.module) == tOrder.end())
                tOrder.push_back(e.module);
        for (const Event& e : eventsOf(m_m, 1))
            if (std::find(mOrder.begin(), mOrder.end(), e.module) == mOrder.end())
                mOrder.push_back(e.module);
        const Json& tm = m_t.doc().find("modules") ? m_t.doc()["modules"] : m_empty;
        const Json& mm = m_m.doc().find("modules") ? m_m.doc()["modules"] : m_empty;
        for (const ModulePair& p : matchModules(tm, mm, tOrder, mOrder, m_tParams, m_mParams, m_pairs, m_options.userMap)) {
            m_toMs[p.torch] = p.mindspore;
            m_toTorch[p.mindspore] = p.torch;
        }
        std::set<std::string> pairedT, pairedM;
        for (const ParamPair& p : m_pairs) {
            pairedT.insert(p.torch);
            pairedM.insert(p.mindspore);
        }
        for (const ParamInfo& p : m_tParams)
            if (!pairedT.count(p.name))
                m_result.unmatchedTorch.push_back(p.name);
        for (const ParamInfo& p : m_mParams)
            if (!pairedM.count(p.name))
                m_result.unmatchedMindspore.push_back(p.name);
        for (const std::string& path : tOrder)
            if (!m_toMs.count(path))
                m_result.unmatchedTorch.push_back(path.empty() ? "(model)" : path);
        for (const std::string& path : mOrder)
            if (!m_toTorch.count(path))
                m_result.unmatchedMindspore.push_back(path.empty() ? "(network)" : path);
    }

    void diverge(Divergence d)
    {
        if (!m_result.firstDivergence)
            m_result.firstDivergence = std::move(d);
    }

    /// Why module t and Cell m part: their arguments, the functional calls their code (or their
    /// containers', before their output number tBefore / mBefore) made, the input, the weights.
    std::vector<std::string> moduleExplanation(const std::string& t, const std::string& m, std::int64_t step = 1,
                                               std::optional<std::int64_t> tBefore = {},
                                               std::optional<std::int64_t> mBefore = {})
    {
        std::vector<std::string> why = modulePitfalls(m_t.module(t), m_m.module(m));
        for (std::string& s : callPitfalls(callsBefore(m_t, step, t, tBefore), callsBefore(m_m, step, m, mBefore), t))
            why.push_back(std::move(s));
        for (const std::string& s : inputPitfalls(m_m.doc().find("inputs")))
            why.push_back(s);
        for (const ParamInfo& p : m_tParams)
            if (p.module == t && !p.buffer && std::find(m_result.unmatchedTorch.begin(), m_result.unmatchedTorch.end(), p.name)
                                     != m_result.unmatchedTorch.end())
                why.push_back("PyTorch's " + p.name + " has no counterpart in MindSpore's " + (m.empty() ? "network" : m));
        if (!m_options.weightsCopied)
            why.push_back("the weights were not copied (--no-copy-weights): each side starts from its own "
                          "initial values, compared under \"initial\"");
        return why;
    }

    /// A Cell compared with a reused PyTorch module's later call is matched after all.
    void reusedFor(const std::string& msModule)
    {
        auto& list = m_result.unmatchedMindspore;
        list.erase(std::remove(list.begin(), list.end(), msModule.empty() ? "(network)" : msModule), list.end());
    }

    void compareForward(std::int64_t step)
    {
        const std::vector<Event> msEvents = eventsOf(m_m, step);
        const std::vector<Event> tEvents = eventsOf(m_t, step);
        const std::map<const Event*, const Event*> paired = counterparts(tEvents, msEvents);
        for (const Event& e : tEvents) {
            auto pair = m_toMs.find(e.module);
            if (pair == m_toMs.end())
                continue;
            const auto tv = m_t.tensor(e.tensor);
            const auto found = paired.find(&e);
            const Event* other = found == paired.end() ? nullptr : found->second;
            // the port's Cell: the matched one, or another for a call PyTorch makes again
            const std::string ms = other ? other->module : pair->second;
            if (other && other->module != pair->second)
                reusedFor(other->module);
            LayerRow row{e.module, ms, classOf(m_t, e.module), classOf(m_m, ms), e.call, e.element,
                         {}, {}, {}, false, other ? other->call : 0};
            row.shapeTorch = tv->shape;
            if (other) {
                const auto mv = m_m.tensor(other->tensor);
                row.shapeMindspore = mv->shape;
                if (tv->shape != mv->shape) {
                    row.diverges = true;
                    diverge({e.module, ms, DivergenceKind::Shape, step, {}, {},
                             elementNote(e.element) + explain(moduleExplanation(e.module, ms, step, e.index,
                                                                                other->index),
                                     "PyTorch's output has shape " + shapeText(tv->shape) + ", MindSpore's "
                                         + shapeText(mv->shape))});
                } else {
                    const Difference d = difference(tv->values, mv->values, false, tv->shape, m_forwardScale);
                    row.forwardMaxAbsDiff = d.maxAbs;
                    if (d.relative > m_options.tolerance) {
                        row.diverges = true;
                        std::vector<std::string> why = moduleExplanation(e.module, ms, step, e.index,
                                                                         other->index);
                        diverge({e.module, ms, DivergenceKind::Forward, step, d.maxAbs, d.relative,
                                 elementNote(e.element) + (why.empty() ? valuesNote(*tv, *mv, d) : join(why))});
                    }
                }
            }
            if (step == 1)
                m_result.layers.push_back(std::move(row));
        }
    }

    /// Which of the port's outputs each of PyTorch's is compared with, module pair by module pair:
    /// call N with call N when both sides call the module equally often; else (one ReLU reused in
    /// PyTorch, ops.relu in the port for some of its uses) first by equal shape in order, then
    /// what is left on both sides in order (a real shape difference).
    std::map<const Event*, const Event*> counterparts(const std::vector<Event>& tEvents,
                                                      const std::vector<Event>& msEvents) const
    {
        std::map<const Event*, const Event*> out;
        for (const auto& [t, m] : m_toMs) {
            std::vector<const Event*> ts, ms;
            for (const Event& e : tEvents)
                if (e.module == t)
                    ts.push_back(&e);
            for (const Event& e : msEvents)
                if (e.module == m)
                    ms.push_back(&e);
            const auto calls = [](const std::vector<const Event*>& events) {
                return events.empty() ? std::int64_t{0} : events.back()->call;
            };
            const bool sameCalls = calls(ts) == calls(ms);
            std::set<const Event*> used;
            const auto pairBy = [&](auto&& fits) {
                for (const Event* te : ts)
                    for (const Event* me : ms)
                        if (!out.count(te) && !used.count(me) && me->element == te->element && fits(*te, *me)) {
                            out[te] = me;
                            used.insert(me);
                        }
            };
            if (sameCalls) {
                pairBy([](const Event& a, const Event& b) { return a.call == b.call; });
                continue;
            }
            pairBy([&](const Event& a, const Event& b) { return m_t.tensor(a.tensor)->shape == m_m.tensor(b.tensor)->shape; });
            pairBy([](const Event&, const Event&) { return true; });
        }
        pairReusedCalls(tEvents, msEvents, out);
        return out;
    }

    /// A module PyTorch calls again where the port has another Cell (one MaxPool2d used twice,
    /// pool1 and pool2 in the port): its calls left over go to the next unmatched Cell of a
    /// corresponding class, after the port's output paired last, in execution order.
    void pairReusedCalls(const std::vector<Event>& tEvents, const std::vector<Event>& msEvents,
                         std::map<const Event*, const Event*>& out) const
    {
        std::set<const Event*> used;
        for (const auto& [t, m] : out)
            used.insert(m);
        std::size_t after = 0; // msEvents before this are behind the last pair
        for (const Event& te : tEvents) {
            if (const auto found = out.find(&te); found != out.end()) {
                after = std::max(after, static_cast<std::size_t>(found->second - msEvents.data()) + 1);
                continue;
            }
            if (!m_toMs.count(te.module))
                continue;
            for (std::size_t i = after; i < msEvents.size(); ++i) {
                const Event& me = msEvents[i];
                if (used.count(&me) || m_toTorch.count(me.module) || me.element != te.element
                    || !correspondingClasses(classOf(m_t, te.module), classOf(m_m, me.module)))
                    continue;
                out[&te] = &me;
                used.insert(&me);
                after = i + 1;
                break;
            }
        }
    }

    static std::string classOf(const Capture& c, const std::string& path)
    {
        const Json* m = c.module(path);
        return m ? (*m)["class"].asString() : "";
    }

    static std::string explain(const std::vector<std::string>& why, const std::string& otherwise)
    {
        return why.empty() ? "no known pitfall explains it: " + otherwise : join(why);
    }

    void errorDivergence()
    {
        const Json* error = m_m.doc().find("error");
        if (m_result.firstDivergence || !error || !error->isObject())
            return;
        const std::string m = (*error)["module"].asString();
        const std::string t = m_toTorch.count(m) ? m_toTorch[m] : m;
        std::vector<std::string> why = moduleExplanation(t, m);
        // The run's diagnostic (type, message, place) when there is one, else the capture's record.
        const std::string raised = "MindSpore raised " + (m_msError.empty() ? (*error)["type"].asString() + ": "
                                                                                  + (*error)["message"].asString()
                                                                            : m_msError);
        why.insert(why.begin(), raised);
        diverge({t, m, DivergenceKind::Error, 1, {}, {}, join(why)});
    }

    void compareLoss(std::int64_t step)
    {
        const std::string key = "loss/" + std::to_string(step);
        const auto tv = m_t.tensor(key), mv = m_m.tensor(key);
        const Json* tl = m_t.doc().find("loss");
        const Json* ml = m_m.doc().find("loss");
        const auto name = [](const Json* l, const char* fallback) {
            return l && l->isObject() ? (*l)["class"].asString() : std::string(fallback);
        };
        if (step == 1 && tv)
            m_result.lossTorch = distributionOf(tv->values).mean;
        if (step == 1 && mv)
            m_result.lossMindspore = distributionOf(mv->values).mean;
        if (!tv || !mv) {
            if (step == 1 && m_m.completed())
                m_result.notes.push_back("the loss was not compared: one side computed it outside a loss module/Cell");
            return;
        }
        const std::vector<std::string> why = lossPitfalls(tl, ml);
        if (tv->values.size() != mv->values.size()) {
            diverge({name(tl, "loss"), name(ml, "loss"), DivergenceKind::Loss, step, {}, {},
                     explain(why, "PyTorch's loss has shape " + shapeText(tv->shape) + ", MindSpore's "
                                      + shapeText(mv->shape))});
            return;
        }
        const Difference d = difference(tv->values, mv->values, false, tv->shape, 0);
        if (d.relative > m_options.tolerance)
            diverge({name(tl, "loss"), name(ml, "loss"), DivergenceKind::Loss, step, d.maxAbs, d.relative,
                     why.empty() ? valuesNote(*tv, *mv, d) : join(why)});
    }

    void compareParameters(std::int64_t step)
    {
        const std::string s = std::to_string(step);
        // Gradients in the order backward computes them (last layer first), then the update.
        std::vector<ParamRow> rows;
        for (const ParamPair& p : m_pairs) { // the rows in the model's order
            const ParamInfo* info = torchParam(p.torch);
            const ParamInfo* msInfo = msParam(p.mindspore);
            rows.push_back({p.torch, p.mindspore, info ? info->shape : std::vector<std::int64_t>{},
                            info && info->buffer, {}, {}, p.transpose, info ? info->module : std::string(),
                            msInfo ? msInfo->module : std::string()});
        }
        for (auto it = m_pairs.rbegin(); it != m_pairs.rend(); ++it)
            compareParameter(*it, "grad/" + s + "/", DivergenceKind::Gradient, step, m_gradScale, rows);
        for (const ParamPair& p : m_pairs)
            compareParameter(p, "after/" + s + "/", DivergenceKind::Update, step, m_paramScale, rows);
        if (step == 1)
            m_result.params = std::move(rows);
    }

    const ParamInfo* torchParam(const std::string& name) const
    {
        for (const ParamInfo& p : m_tParams)
            if (p.name == name)
                return &p;
        return nullptr;
    }

    const ParamInfo* msParam(const std::string& name) const
    {
        for (const ParamInfo& p : m_mParams)
            if (p.name == name)
                return &p;
        return nullptr;
    }

    void compareParameter(const ParamPair& p, const std::string& prefix, DivergenceKind kind, std::int64_t step,
                          double scale, std::vector<ParamRow>& rows)
    {
        const ParamInfo* info = torchParam(p.torch);
        const bool buffer = info && info->buffer;
        if (buffer && kind == DivergenceKind::Update)
            kind = DivergenceKind::State;
        const auto row = std::find_if(rows.begin(), rows.end(), [&](const ParamRow& r) { return r.torch == p.torch; });
        const auto tv = m_t.tensor(prefix + p.torch), mv = m_m.tensor(prefix + p.mindspore);
        if (!tv || !mv || tv->values.size() != mv->values.size())
            return;
        const Difference d = difference(tv->values, mv->values, p.transpose, tv->shape, scale);
        (kind == DivergenceKind::Gradient ? row->gradMaxAbsDiff : row->updateMaxAbsDiff) = d.maxAbs;
        if (d.relative <= m_options.tolerance)
            return;
        std::vector<std::string> why;
        if (kind == DivergenceKind::Update)
            why = optimizerPitfalls(m_t.doc().find("optimizer"), m_m.doc().find("optimizer"));
        else if (kind == DivergenceKind::State && info)
            why = modulePitfalls(m_t.module(info->module), m_m.module(m_toMs.count(info->module) ? m_toMs[info->module] : info->module));
        diverge({p.torch, p.mindspore, kind, step, d.maxAbs, d.relative, why.empty() ? valuesNote(*tv, *mv, d) : join(why)});
    }

    const Capture& m_t;
    const Capture& m_m;
    const CompareOptions& m_options;
    std::string m_msError;
    Json m_empty = Json::array();
    std::vector<ParamInfo> m_tParams, m_mParams;
    std::vector<ParamPair> m_pairs;
    std::map<std::string, std::string> m_toMs, m_toTorch;
    double m_forwardScale = 0, m_gradScale = 0, m_paramScale = 0;
    MigrationResult m_result;
};

} // namespace

MigrationResult compareCaptures(const Capture& torch, const Capture& ms, const CompareOptions& options,
                                const std::string& msError)
{
    return Comparer(torch, ms, options, msError).run();
}

} // namespace gradstep::migrate
