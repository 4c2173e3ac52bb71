// compare --what fd. SPDX-License-Identifier: MIT
#include "session/compare_fd.h"

#include "api/finite_differences.h"
#include "api/grad_events.h"

#include <cmath>
#include <exception>

namespace gradstep::session {

// Note [fd in one run]: the finite differences must be those of the very function and point the
// analytic gradients were taken at, so they are taken inside the first step's gradient call, while
// its finished event is reported (currentGradCallProbe), before the script sees the gradients and
// an optimizer changes the weights. Each probe runs the function without recording and without
// observer, so the step's node counts and curve are those of the script alone. A comparison of
// two runs would also compare whatever is random between them.

namespace {
ParamGrad sampledGrad(const SampledGradient& s)
{
    ParamGrad p;
    p.name = s.name;
    p.shape = s.shape;
    p.indices = s.indices;
    p.values = s.values;
    double squares = 0.0;
    for (double v : s.values) {
        p.sum += v;
        squares += v * v;
    }
    p.norm = std::sqrt(squares);
    return p;
}
} // namespace

void takeFiniteDifferences(const GradCallEvent& event, StepFigures& figures)
{
    const GradCallProbe* probe = currentGradCallProbe();
    if (!probe || !probe->args) {
        figures.finiteDifferencesError =
            "the first step's gradient call cannot be evaluated again: finite differences need a grad, "
            "value_and_grad or GradOperation call without sens (not a TrainOneStepCell step or Model.train)";
        return;
    }
    try {
        const std::vector<SampledGradient> sampled =
            centralDifferences(probe->objective, *probe->args, event.positions, event.weights, event.inputGrads,
                               event.weightGrads);
        for (const SampledGradient& s : sampled)
            figures.finiteDifferences.push_back(sampledGrad(s));
    } catch (const std::exception& e) {
        figures.finiteDifferences.clear();
        figures.finiteDifferencesError =
            std::string("evaluating the differentiated function in float64 failed: ") + e.what();
    }
}

Comparison compareFiniteDifferences(const CompareSide& a, const CompareSide& b, const CompareOptions& options)
{
    Comparison c;
    c.what = CompareWhat::FiniteDifferences;
    c.steps = 1;
    c.tolerance = options.tolerance;
    CompareSide side = a;
    side.finiteDifferences = true;
    CompareOptions once = options;
    once.steps = 1;
    if (options.runStarted)
        options.runStarted(side.label, 1, 1);
    c.a = runSide(side, once, c.interrupted, c.abandoned);
    c.b = c.a;
    c.b.label = b.label;
    c.b.params = c.a.finiteDifferences;
    c.a.finiteDifferences.clear();
    c.b.finiteDifferences.clear();
    if (!c.b.error && c.a.finiteDifferencesError)
        c.b.error = c.a.finiteDifferencesError;
    // B's curve is A's: one step of one run.
    concludeComparison(c);
    return c;
}

} // namespace gradstep::session
