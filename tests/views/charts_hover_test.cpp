// The Charts panel's hover text: every drawn run's loss, learning rate and ticked parameters'
// norms at the hovered step, and the difference when two runs are drawn as one.
// SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include "views/charts_hover.h"
#include "views/charts_view.h"

using namespace gradstep;
using namespace gradstep::views;

namespace {

ChartRun run(const char* label, double scale, int steps)
{
    ChartRun r;
    r.label = QString::fromLatin1(label);
    for (int i = 1; i <= steps; ++i) {
        debug::StepSummary s;
        s.step = i;
        s.loss = scale / i;
        s.learningRate = 0.1 * scale;
        for (const char* name : {"w", "b"}) {
            debug::ParameterSummary p;
            p.name = name;
            p.gradientNorm = scale * i * (name[0] == 'w' ? 1.0 : 0.5);
            p.weightNorm = 10.0 * scale + i;
            s.parameters.push_back(p);
        }
        r.steps.push_back(s);
    }
    return r;
}

} // namespace

TEST_CASE("hovering a step shows every drawn run's loss, learning rate and parameter norms there")
{
    ChartsView charts;
    std::vector<debug::StepSummary> current = run("now", 3.0, 2).steps;
    current[1].learningRate = std::numeric_limits<double>::quiet_NaN(); // no optimizer reported one
    charts.setHistory(current);
    CHECK(charts.hoverText(2) == QStringLiteral("step 2\n"
                                                "Current run: loss 1.5, lr -\n"
                                                "  w: gradient norm 6, weight norm 32\n"
                                                "  b: gradient norm 3, weight norm 32"));

    charts.setComparedRuns({run("A: lr 0.1", 1.0, 3), run("B: lr 0.05", 2.0, 2)}, 1);
    REQUIRE(charts.showingComparedRuns());
    CHECK(charts.hoverText(2) == QStringLiteral("step 2\n"
                                                "A: lr 0.1: loss 0.5, lr 0.1\n"
                                                "  w: gradient norm 2, weight norm 12\n"
                                                "  b: gradient norm 1, weight norm 12\n"
                                                "B: lr 0.05: loss 1, lr 0.2\n"
                                                "  w: gradient norm 4, weight norm 22\n"
                                                "  b: gradient norm 2, weight norm 22"));
    // A run that ended sooner says so at a step it never reached.
    CHECK(charts.hoverText(3).contains(QStringLiteral("\nB: lr 0.05: no step 3")));
    CHECK(charts.hoverText(3).contains(QStringLiteral("A: lr 0.1: loss 0.3333333, lr 0.1")));

    // Drawn as their difference: the runs' values, then A - B of each drawn series.
    charts.setDifference(true);
    CHECK(charts.hoverText(2).endsWith(
        QStringLiteral("\nA: lr 0.1 - B: lr 0.05: loss -0.5, w gradient norm -2, b gradient norm -1")));
    CHECK(charts.hoverText(3).endsWith(QStringLiteral(": loss -, w gradient norm -, b gradient norm -")));
    charts.setDifference(false);
    CHECK_FALSE(charts.hoverText(2).contains(QStringLiteral(" - B: lr 0.05")));

    // Side by side: still every drawn run.
    charts.setSideBySide(true);
    CHECK(charts.hoverText(1).contains(QStringLiteral("A: lr 0.1: loss 1, lr 0.1")));
    CHECK(charts.hoverText(1).contains(QStringLiteral("B: lr 0.05: loss 2, lr 0.2")));
}

TEST_CASE("the hover text names a parameter a run lacks with dashes, not another's values")
{
    ChartRun a = run("A", 1.0, 1);
    ChartRun b = run("B", 1.0, 1);
    b.steps[0].parameters.pop_back(); // B has no "b"
    const QString text = chartHoverText({a, b}, {QStringLiteral("b")}, 1, true);
    CHECK(text == QStringLiteral("step 1\n"
                                 "A: loss 1, lr 0.1\n"
                                 "  b: gradient norm 0.5, weight norm 11\n"
                                 "B: loss 1, lr 0.1\n"
                                 "  b: gradient norm -, weight norm -\n"
                                 "A - B: loss 0, b gradient norm -"));
}
