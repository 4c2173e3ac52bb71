// Running the two sides of a comparison: each side is one ScriptRunner run with its own settings
// and the same seed, watched by a StepObserver that collects the first training step's figures
// and every step's curve point, and stops the script when the last step asked for is over.
// SPDX-License-Identifier: MIT
#include "session/compare.h"
#include "session/compare_fd.h"
#include "session/compare_ranks.h"

#include "api/value.h"
#include "data/dataset.h"
#include "autodiff/observer.h"
#include "python/bind/api_profile.h"
#include "python/host/script_runner.h"
#include "tensor/dtype_storage.h"
#include "tensor/errors.h"
#include "tensor/tensor_norm.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gradstep::session {

namespace {

using Clock = std::chrono::steady_clock;

double secondsBetween(Clock::time_point from, Clock::time_point to)
{
    return std::chrono::duration<double>(to - from).count();
}

// A complex gradient is compared by its magnitudes |z|: one number per element, and the norm
// is the complex norm.
std::vector<double> magnitudes(const Tensor& t)
{
    std::vector<double> out(static_cast<std::size_t>(t.numel()));
    visitComplex(t.dtype(), [&](auto* tag) {
        using C = std::remove_pointer_t<decltype(tag)>;
        const C* p = static_cast<const C*>(t.rawData());
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = std::abs(std::complex<double>(p[i]));
    });
    return out;
}

std::vector<double> elementValues(const Tensor& t)
{
    return isComplex(t.dtype()) ? magnitudes(t) : t.toDoubles();
}

double vectorNorm(const std::vector<double>& values)
{
    double squares = 0.0;
    for (double v : values)
        squares += v * v;
    return std::sqrt(squares);
}

ParamGrad gradOf(std::string name, const Tensor& grad)
{
    ParamGrad p;
    p.name = std::move(name);
    if (!grad.defined())
        return p;
    p.shape = grad.shape().toVector();
    p.values = elementValues(grad);
    for (double v : p.values)
        p.sum += v;
    p.norm = vectorNorm(p.values);
    return p;
}

std::optional<double> oneElement(const Tensor& t)
{
    if (!t.defined() || t.numel() != 1)
        return std::nullopt;
    return t.item();
}

// Note [what a step is]: the first gradient-function call at depth 0 that completes (grad,
// value_and_grad, GradOperation or a TrainOneStepCell step), then the optimizer update that
// follows it, if any, before the next depth-0 call. The script is stopped at the end of the update
// or at the start of the next call, whichever comes first (ScriptRunner::stopNow from the event);
// a script that ends sooner is fine.
//
// Note [forward passes]: a forward pass of the differentiated function is counted through its
// weights. Inside the call, each forward node that reads weight p counts once for p; before the
// call, outside any gradient call (the fallback's `loss = fn(...)`), the same. What runs after
// the call, other than the update, belongs to the next step (the fallback's next `loss = ...`).
// Per weight, passes = reads in the step / reads inside the call, and the step's figure is the
// smallest over the weights, rounded down: a script that also prints one weight's norm does not
// inflate it, and a weight used twice per forward (tied) still counts one pass per forward.
// Without weights (gradients by input only) only the call's own forward is counted.
//
// Note [the step's extent]: it starts at the first forward node before the call that reads one
// of the call's weights (else at the call) and ends with the update (else with the call). Its
// nodes and seconds cover that extent; the loss is the value's first Tensor when the API returns
// the value, else the last one-element output of a forward node inside the call before its
// backward pass (the loss node of `fn`, since aux outputs are rarely one element).
class StepObserver : public ExecutionObserver {
public:
    StepObserver(python::ScriptRunner& runner, std::int64_t steps, bool finiteDifferences, bool optimizerGradients)
        : m_runner(runner), m_stepsWanted(std::max<std::int64_t>(1, steps)), m_finiteDifferences(finiteDifferences),
          m_optimizerGradients(optimizerGradients)
    {}

    void nodeStarted(const NodeEvent&) override {}

    void nodeFinished(const NodeEvent& e) override
    {
        if (m_done)
            return;
        m_sawGraphNode = m_sawGraphNode || e.graphNode != nullptr;
        if (m_firstClosed) { // later steps: only the loss of a grad-only call is looked for
            if (m_inCall)
                noteLoss(e);
            return;
        }
        if (m_stepTaken) { // after the call only the update belongs to the step
            m_figures.updateNodes += e.phase == Phase::Update ? 1 : 0;
            return;
        }
        if (!m_inCall) { // kept until the step's weights say whether it belongs to the step
            if (e.phase == Phase::Forward) {
                ++m_outsideNodes;
                noteReads(e, false);
            }
            return;
        }
        if (e.phase == Phase::Backward) {
            ++m_figures.backwardNodes;
        } else if (e.phase == Phase::Update) {
            ++m_figures.updateNodes;
        } else {
            ++m_figures.forwardNodes;
            noteReads(e, true);
        }
        noteLoss(e);
    }

    void gradCallStarted(const GradCallEvent& e) override
    {
        if (m_done || e.depth != 0)
            return;
        if (m_stepTaken) {
            closeStep(m_stepEnd); // no update: the step ended with its gradient call
            if (m_done)
                return;
        }
        m_inCall = true;
        m_sawBackward = false;
        m_lossInCall.reset();
        if (m_firstClosed)
            return;
        m_figures.forwardNodes = m_figures.backwardNodes = m_figures.updateNodes = 0;
        m_callStart = Clock::now();
        m_weights.assign(e.weights.begin(), e.weights.end());
        std::erase_if(m_reads, [](const Read& r) { return r.inCall; }); // a failed earlier call
    }

    void gradCallFinished(const GradCallEvent& e) override
    {
        if (m_done || e.depth != 0 || !m_inCall)
            return;
        m_inCall = false;
        if (!e.completed)
            return;
        m_stepTaken = true;
        m_stepEnd = Clock::now();
        CurvePoint point;
        point.step = static_cast<std::int64_t>(m_curve.size()) + 1;
        if (e.value) {
            const TensorList leaves = e.value->leaves();
            point.loss = leaves.empty() ? std::nullopt : oneElement(leaves.front());
        } else {
            point.loss = m_lossInCall;
        }
        // The first step keeps every gradient element (its diff); later steps their norms.
        for (std::size_t i = 0; i < e.inputGrads.size() && i < e.positions.size(); ++i) {
            std::string name = "input" + std::to_string(e.positions[i]);
            if (m_firstClosed) {
                point.params.push_back({std::move(name), l2Norm(e.inputGrads[i]), 0.0});
                continue;
            }
            ParamGrad g = gradOf(std::move(name), e.inputGrads[i]);
            point.params.push_back({g.name, g.norm, 0.0});
            m_figures.params.push_back(std::move(g));
        }
        for (std::size_t i = 0; i < e.weightGrads.size() && i < e.weights.size(); ++i) {
            const Tensor& value = e.weights[i];
            if (m_firstClosed) {
                point.params.push_back({e.weights[i].name(), l2Norm(e.weightGrads[i]), l2Norm(value)});
                continue;
            }
            ParamGrad g = gradOf(e.weights[i].name(), e.weightGrads[i]);
            point.params.push_back({g.name, g.norm, l2Norm(value)});
            m_figures.params.push_back(std::move(g));
        }
        if (!m_firstClosed) {
            m_figures.returnedValue = e.value != nullptr;
            m_figures.loss = point.loss;
            if (m_finiteDifferences)
                takeFiniteDifferences(e, m_figures);
        }
        m_open = std::move(point);
        m_openUnscaled = false;
        m_openScale = 0.0;
    }

    // A loss-scaled step's gradients are the true ones times the scale (Note [Loss-scaled
    // gradients] in debug/recorder.cpp): the step's figures are divided by it, so a scaled and an
    // unscaled run (amp's O2 against O0, or a saved run, whose report is unscaled) compare the
    // gradients themselves.
    void lossScaleReported(const LossScaleEvent& e) override
    {
        if (m_done || !m_open || m_openUnscaled || !(e.lossScale > 0.0) || !std::isfinite(e.lossScale))
            return;
        m_openUnscaled = true;
        m_openScale = e.lossScale;
        for (ParamNorms& p : m_open->params)
            p.gradNorm /= e.lossScale;
        if (m_firstClosed)
            return;
        for (ParamGrad& g : m_figures.params) {
            for (double& v : g.values)
                v /= e.lossScale;
            g.sum /= e.lossScale;
            g.norm /= e.lossScale;
        }
    }

    void updateFinished(const UpdateEvent& e) override
    {
        if (m_done || !m_stepTaken)
            return;
        if (m_open && !m_open->learningRate)
            m_open->learningRate = e.learningRate;
        if (m_optimizerGradients && !m_updateSeen)
            takeOptimizerGradients(e);
        m_updateSeen = true;
        closeStep(Clock::now());
    }

    /// After the first step, node events only serve to find the loss of a gradient call that
    /// returns none (grad, GradOperation): a step that returns its value runs without them.
    bool wantsNodeEvents() const override { return !m_firstClosed || !m_figures.returnedValue; }

    /// True once the first step's gradients were taken.
    bool stepTaken() const { return m_firstClosed || m_stepTaken; }
    /// Some node ran as a node of a compiled graph (graph mode).
    bool sawGraphNode() const { return m_sawGraphNode; }

    /// The figures once the run is over (a script that ended right after its gradient call
    /// ended the step there).
    StepFigures figures() const
    {
        StepFigures f = m_figures;
        f.forwardPasses = forwardPasses();
        const Read* first = firstWeightRead();
        if (first && stepTaken())
            f.forwardNodes += m_outsideNodes - first->ordinal + 1;
        const Clock::time_point from = first ? std::min(first->time, m_callStart) : m_callStart;
        f.seconds = stepTaken() ? secondsBetween(from, m_firstClosed ? m_firstEnd : m_stepEnd) : 0.0;
        f.steps = m_curve;
        if (m_open) // the run ended inside the step's update, or right after its gradient call
            f.steps.push_back(*m_open);
        return f;
    }

private:
    struct Read {
        Clock::time_point time;
        Tensor tensor;
        bool inCall = false;
        std::int64_t ordinal = 0; ///< outside the call: the node's number among those outside
    };

    void noteLoss(const NodeEvent& e)
    {
        if (e.phase == Phase::Backward)
            m_sawBackward = true;
        else if (e.phase == Phase::Forward && !m_sawBackward && e.outputs.size() == 1)
            if (auto v = oneElement(e.outputs[0]))
                m_lossInCall = v;
    }

    void noteReads(const NodeEvent& e, bool inCall)
    {
        // Outside a tape only Parameters require grad, so this keeps few handles.
        for (const Tensor& input : e.inputs)
            if (input.defined() && input.requiresGrad())
                m_reads.push_back({Clock::now(), input, inCall, m_outsideNodes});
    }

    /// CompareSide::optimizerGradients: the step's weight gradients become those its first
    /// update received (data parallel: after the all-reduce). A loss-scaled step's are divided
    /// by the scale like the call's.
    void takeOptimizerGradients(const UpdateEvent& e)
    {
        const double scale = m_openScale > 0.0 ? m_openScale : 1.0;
        for (std::size_t i = 0; i < e.parameters.size() && i < e.gradients.size(); ++i) {
            const std::string& name = e.parameters[i].name();
            ParamGrad g = gradOf(name, e.gradients[i]);
            for (double& v : g.values)
                v /= scale;
            g.sum /= scale;
            g.norm /= scale;
            if (m_open)
                for (ParamNorms& p : m_open->params)
                    if (p.name == name)
                        p.gradNorm = g.norm;
            if (m_firstClosed)
                continue;
            for (ParamGrad& mine : m_figures.params)
                if (mine.name == name)
                    mine = g;
        }
    }

    /// The open step is over; the last one asked for stops the script.
    void closeStep(Clock::time_point end)
    {
        if (!m_firstClosed) {
            m_firstClosed = true;
            m_firstEnd = end;
        }
        if (m_open)
            m_curve.push_back(std::move(*m_open));
        m_open.reset();
        m_openScale = 0.0;
        m_updateSeen = false;
        m_stepTaken = false;
        if (static_cast<std::int64_t>(m_curve.size()) >= m_stepsWanted) {
            m_done = true;
            m_runner.stopNow(); // throws out of this event: nothing of the next step runs
        }
    }

    bool isWeight(const Tensor& t) const
    {
        return std::any_of(m_weights.begin(), m_weights.end(),
                           [&](const Parameter& w) { return w.sameAs(t); });
    }

    const Read* firstWeightRead() const
    {
        for (const Read& r : m_reads)
            if (!r.inCall && isWeight(r.tensor))
                return &r;
        return nullptr;
    }

    int forwardPasses() const
    {
        if (!stepTaken())
            return 0;
        double passes = std::numeric_limits<double>::infinity();
        for (const Parameter& w : m_weights) {
            std::int64_t inside = 0, all = 0;
            for (const Read& r : m_reads) {
                if (!w.sameAs(r.tensor))
                    continue;
                ++all;
                inside += r.inCall ? 1 : 0;
            }
            if (inside > 0)
                passes = std::min(passes, static_cast<double>(all) / static_cast<double>(inside));
        }
        return std::isinf(passes) ? 1 : static_cast<int>(std::floor(passes));
    }

    python::ScriptRunner& m_runner;
    std::int64_t m_stepsWanted;
    bool m_finiteDifferences = false;
    bool m_optimizerGradients = false;
    bool m_updateSeen = false;   ///< the open step's first update was seen
    double m_openScale = 0.0;    ///< the open step's loss scale, when it had one
    Clock::time_point m_callStart = Clock::time_point::max();
    Clock::time_point m_stepEnd, m_firstEnd;
    StepFigures m_figures;             ///< the first step's
    std::vector<CurvePoint> m_curve;   ///< the closed steps
    std::optional<CurvePoint> m_open;  ///< the step whose gradients were taken, not yet closed
    bool m_openUnscaled = false;       ///< its gradients were divided by its loss scale
    std::vector<Parameter> m_weights;
    std::vector<Read> m_reads;
    std::optional<double> m_lossInCall;
    std::int64_t m_outsideNodes = 0;
    bool m_sawGraphNode = false;
    bool m_inCall = false;
    bool m_sawBackward = false;
    bool m_stepTaken = false;   ///< the open step's gradients were taken
    bool m_firstClosed = false; ///< the first step is over: its figures are final
    bool m_done = false;
};

} // namespace

std::pair<CompareSide, CompareSide> settingSides(const std::filesystem::path& script,
                                                 CompareWhat what, const CompareOptions& options)
{
    CompareSide a, b;
    a.script = b.script = script;
    a.overrides = b.overrides = options.base;
    a.apiProfile = b.apiProfile = options.baseApiProfile;
    switch (what) {
    case CompareWhat::HasAux:
        a.label = "has_aux on";
        a.overrides.hasAux = run::HasAuxOverride::On;
        b.label = "has_aux off";
        b.overrides.hasAux = run::HasAuxOverride::Off;
        break;
    case CompareWhat::Mode:
        a.label = "PyNative";
        a.overrides.mode = run::ModeOverride::PyNative;
        b.label = "graph";
        b.overrides.mode = run::ModeOverride::Graph;
        break;
    case CompareWhat::GradApi:
        a.label = "value_and_grad";
        a.overrides.gradApi = run::GradApiOverride::ValueAndGrad;
        b.label = "grad-only fallback";
        b.overrides.gradApi = run::GradApiOverride::GradFallback;
        break;
    case CompareWhat::Api:
        a.label = "MindSpore 2.x API";
        a.apiProfile = std::string(python::kApiProfile2x);
        b.label = "MindSpore 1.10 API";
        b.apiProfile = std::string(python::kApiProfile110);
        break;
    case CompareWhat::Amp:
        a.label = "O0 (float32)";
        a.overrides.amp = run::AmpOverride::O0;
        b.label = "mixed precision (as written, else O2)";
        b.overrides.amp = run::AmpOverride::O2;
        break;
    case CompareWhat::FiniteDifferences:
        a.label = "analytic";
        a.finiteDifferences = true;
        b.label = "finite differences (float64)";
        break;
    case CompareWhat::Ranks:
        return ranksSides(script, options);
    case CompareWhat::Scripts:
    case CompareWhat::Saved:
        throw ValueError(std::string("settingSides: '") + compareWhatName(what)
                         + "' is not a setting");
    }
    return {a, b};
}

std::pair<CompareSide, CompareSide> scriptSides(const std::filesystem::path& a,
                                                const std::filesystem::path& b,
                                                const CompareOptions& options)
{
    CompareSide sa, sb;
    sa.script = a;
    sb.script = b;
    sa.overrides = sb.overrides = options.base;
    sa.apiProfile = sb.apiProfile = options.baseApiProfile;
    const bool sameName = a.filename() == b.filename();
    sa.label = sameName ? a.string() : a.filename().string();
    sb.label = sameName ? b.string() : b.filename().string();
    return {sa, sb};
}

namespace {

std::string errorText(const run::Diagnostic& d)
{
    return d.type.empty() ? d.message : d.type + ": " + d.message;
}

} // namespace

StepFigures runSide(const CompareSide& side, const CompareOptions& options, bool& interrupted,
                    bool& abandoned)
{
    python::RunRequest request;
    request.script = side.script;
    request.args = options.args;
    request.timeout = options.timeout;
    request.output = options.output;
    request.apiProfile = side.apiProfile;
    request.overrides = side.overrides;
    request.overrides.seed = options.seed;
    const data::BatchScaleScope batchScale(side.batchScale);
    python::ScriptRunner runner;
    StepObserver observer(runner, options.steps, side.finiteDifferences, side.optimizerGradients);
    request.observer = &observer;
    const auto wallClock = [] {
        return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    };
    const double startedAt = wallClock();
    runner.start(std::move(request));
    std::optional<python::RunResult> ended;
    while (!(ended = runner.waitFor(std::chrono::milliseconds(100))))
        if (!interrupted && options.cancelled && options.cancelled()) {
            runner.stop();
            interrupted = true;
        }
    const python::RunResult& result = *ended;
    abandoned = abandoned || result.abandoned;
    StepFigures figures = observer.figures();
    figures.startedAt = startedAt;
    figures.endedAt = wallClock();
    if (interrupted) {
        figures.label = side.label;
        figures.error = "interrupted";
        return figures;
    }
    figures.label = side.label;
    figures.runSeconds = result.seconds;
    const bool failed =
        result.status == python::RunStatus::Error || result.status == python::RunStatus::TimedOut;
    if (failed && result.diagnostic) {
        std::string text = result.status == python::RunStatus::TimedOut
                               ? "the script timed out: " + result.diagnostic->message
                               : errorText(*result.diagnostic);
        if (observer.stepTaken()) {
            figures.laterError = std::move(text);
        } else {
            figures.error = std::move(text);
            figures.errorLocation = result.diagnostic->span;
        }
    } else if (!observer.stepTaken()) {
        figures.error = "the script made no gradient call (grad, value_and_grad, GradOperation "
                        "or TrainOneStepCell), so there is no step to compare";
    }
    // Graph mode shows in the events (NodeEvent::graphNode); a run asked for it that executed no
    // graph node ran in PyNative mode, and its figures would compare PyNative with itself.
    if (!figures.error && side.overrides.mode == run::ModeOverride::Graph
        && !observer.sawGraphNode()) {
        figures = StepFigures{};
        figures.label = side.label;
        figures.error = "graph mode is not available yet in this build: the run executed in "
                        "PyNative mode, so there is nothing to compare";
    }
    return figures;
}

const char* compareWhatName(CompareWhat what)
{
    switch (what) {
    case CompareWhat::HasAux: return "has-aux";
    case CompareWhat::Mode: return "mode";
    case CompareWhat::GradApi: return "grad-api";
    case CompareWhat::Api: return "api";
    case CompareWhat::Scripts: return "scripts";
    case CompareWhat::Saved: return "saved";
    case CompareWhat::FiniteDifferences: return "fd";
    case CompareWhat::Amp: return "amp";
    case CompareWhat::Ranks: return "ranks";
    }
    return "?";
}

std::optional<CompareWhat> parseCompareWhat(std::string_view name)
{
    for (CompareWhat w : {CompareWhat::HasAux, CompareWhat::Mode, CompareWhat::GradApi,
                          CompareWhat::Api, CompareWhat::FiniteDifferences, CompareWhat::Amp, CompareWhat::Ranks})
        if (name == compareWhatName(w))
            return w;
    return std::nullopt;
}

Comparison compareSides(const CompareSide& a, const CompareSide& b, CompareWhat what,
                        const CompareOptions& options)
{
    if (what == CompareWhat::FiniteDifferences)
        return compareFiniteDifferences(a, b, options);
    Comparison c;
    c.what = what;
    c.steps = options.steps;
    c.tolerance = options.tolerance;
    // The warm-up evens out one-time costs of the first run in this process; ranks run in their own.
    const bool warmUp = options.warmUp && !a.unavailable && a.ranks == 0;
    const int runs = warmUp ? 3 : 2;
    int run = 0;
    const auto started = [&](const CompareSide& side) {
        if (options.runStarted)
            options.runStarted(side.label, ++run, runs);
    };
    if (warmUp) {
        started(a);
        CompareOptions silent = options;
        silent.output = nullptr;
        silent.steps = 1;
        runSide(a, silent, c.interrupted, c.abandoned);
        if (c.interrupted) {
            c.a.label = a.label;
            c.b.label = b.label;
            c.a.error = c.b.error = "interrupted";
            return c;
        }
    }
    for (const auto& [side, figures] : {std::pair{&a, &c.a}, std::pair{&b, &c.b}}) {
        // A run shorter than the 100 ms poll never sees a cancel: look between the runs too.
        c.interrupted = c.interrupted || (options.cancelled && options.cancelled());
        if (c.interrupted) {
            figures->label = side->label;
            figures->error = "interrupted";
            continue;
        }
        if (side->unavailable || c.abandoned) {
            figures->label = side->label;
            figures->error = c.abandoned ? "not run: an earlier run of the script was given up on, blocked "
                                           "after its timeout"
                                         : *side->unavailable;
            continue;
        }
        started(*side);
        *figures = side->ranks > 0 ? options.runOnRanks(*side, options, c.interrupted)
                                   : runSide(*side, options, c.interrupted, c.abandoned);
    }
    concludeComparison(c);
    return c;
}

Comparison compare(const std::filesystem::path& script, CompareWhat what,
                   const CompareOptions& options)
{
    const auto [a, b] = settingSides(script, what, options);
    return compareSides(a, b, what, options);
}

} // namespace gradstep::session
