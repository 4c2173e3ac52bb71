// The Gradients table's rows from a state alone: the current step's once its gradients exist,
// else the last finished step's (and which step that is), and every parameter's norm history.
// SPDX-License-Identifier: MIT
#include "session/gradient_rows.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;
using namespace gradstep::debug;

namespace {

StepSummary finishedStep(std::int64_t step, double wNorm, double bNorm)
{
    StepSummary s;
    s.step = step;
    ParameterSummary w;
    w.name = "fc.weight";
    w.gradientNorm = wNorm;
    w.gradient.l2Norm = wNorm;
    w.weightNorm = 4.0;
    ParameterSummary b;
    b.name = "fc.bias";
    b.gradientNorm = bNorm; // NaN: the loss did not depend on it that step
    s.parameters = {w, b};
    return s;
}

} // namespace

TEST_CASE("before the current step's gradients exist the rows are the last finished step's")
{
    SessionState state;
    state.step = 3;
    state.history = {finishedStep(1, 2.0, 1.0), finishedStep(2, 1.5, std::nan(""))};
    const GradientRows rows = gradientRows(state);
    CHECK(rows.fromStep == 2);
    REQUIRE(rows.rows.size() == 2);
    CHECK(rows.rows[0].name == "fc.weight");
    CHECK(rows.rows[0].defined);
    CHECK(rows.rows[0].gradient.l2Norm == 1.5);
    CHECK(rows.rows[0].weightNorm == 4.0);
    CHECK_FALSE(rows.rows[1].defined);
    REQUIRE(rows.normHistory.at("fc.weight").size() == 2);
    CHECK(rows.normHistory.at("fc.weight")[0] == 2.0);
    CHECK(std::isnan(rows.normHistory.at("fc.bias")[1]));
}

TEST_CASE("once the current step's gradients exist they are the rows and end each norm history")
{
    SessionState state;
    state.step = 3;
    state.history = {finishedStep(1, 2.0, 1.0), finishedStep(2, 1.5, 0.5)};
    ParameterGradient g;
    g.name = "fc.weight";
    g.gradient = Tensor::full(Shape{2, 2}, 0.5);
    g.stats.l2Norm = 1.0;
    g.weightNorm = 3.0;
    ParameterGradient none;
    none.name = "fc.bias";
    state.gradients = {g, none};
    const GradientRows rows = gradientRows(state);
    CHECK(rows.fromStep == 0);
    REQUIRE(rows.rows.size() == 2);
    CHECK(rows.rows[0].gradient.l2Norm == 1.0);
    CHECK(rows.rows[0].weightNorm == 3.0);
    CHECK_FALSE(rows.rows[1].defined);
    REQUIRE(rows.normHistory.at("fc.weight").size() == 3);
    CHECK(rows.normHistory.at("fc.weight")[2] == 1.0);
    CHECK(rows.normHistory.at("fc.bias").size() == 2); // no gradient this step: nothing appended
}
