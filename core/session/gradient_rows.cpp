// SPDX-License-Identifier: MIT
#include "session/gradient_rows.h"

#include <cmath>

namespace gradstep::debug {

GradientRows gradientRows(const SessionState& state)
{
    GradientRows out;
    std::int64_t lastStep = 0;
    for (const StepSummary& step : state.history) {
        for (const ParameterSummary& p : step.parameters)
            out.normHistory[p.name].push_back(p.gradientNorm);
        lastStep = step.step;
    }
    if (state.step > lastStep)
        for (const ParameterGradient& g : state.gradients)
            if (g.gradient.defined())
                out.normHistory[g.name].push_back(g.stats.l2Norm);

    if (state.gradients.empty() && !state.history.empty()) {
        const StepSummary& last = state.history.back();
        out.fromStep = last.step;
        for (const ParameterSummary& p : last.parameters)
            out.rows.push_back({p.name, !std::isnan(p.gradientNorm), p.gradient, p.weightNorm});
        return out;
    }
    for (const ParameterGradient& g : state.gradients)
        out.rows.push_back({g.name, g.gradient.defined(), g.stats, g.weightNorm});
    return out;
}

} // namespace gradstep::debug
