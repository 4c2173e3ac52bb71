// The curves of a comparison without running scripts: where two curves part, the wire form a
// side crosses processes in, and a saved run read back (session/compare_curves.cpp,
// session/compare_wire.cpp). SPDX-License-Identifier: MIT
#include "session/compare.h"

#include "io/json.h"
#include "tensor/errors.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

using namespace gradstep;
using namespace gradstep::session;

namespace {

CurvePoint point(std::int64_t step, std::optional<double> loss, double wGrad, double bGrad)
{
    return CurvePoint{step, loss, 0.1, {{"w", wGrad, 1.0}, {"b", bGrad, 0.5}}};
}

} // namespace

TEST_CASE("curves part at the first step whose loss or gradient norm differs beyond the tolerance")
{
    const std::vector<CurvePoint> a{point(1, 2.0, 1.0, 0.5), point(2, 1.5, 0.8, 0.4), point(3, 1.0, 0.6, 0.3)};
    SECTION("identical curves never part") { CHECK_FALSE(firstDivergence(a, a, 1e-3)); }
    SECTION("a gradient first, named")
    {
        std::vector<CurvePoint> b = a;
        b[1].params[1].gradNorm = 0.41; // 2.4 % off
        const auto d = firstDivergence(a, b, 1e-3);
        REQUIRE(d);
        CHECK(d->step == 2);
        CHECK(d->kind == Divergence::Kind::Gradient);
        CHECK(d->name == "b");
        CHECK(*d->a == 0.4);
        CHECK(*d->b == 0.41);
        CHECK_FALSE(firstDivergence(a, b, 0.05)); // within a looser tolerance
    }
    SECTION("the loss counts before the gradients of the same step")
    {
        std::vector<CurvePoint> b = a;
        b[2].loss = 1.1;
        b[2].params[0].gradNorm = 9.0;
        const auto d = firstDivergence(a, b, 1e-3);
        REQUIRE(d);
        CHECK(d->step == 3);
        CHECK(d->kind == Divergence::Kind::Loss);
        CHECK(d->name.empty());
    }
    SECTION("NaN on one side parts, NaN on both does not")
    {
        std::vector<CurvePoint> b = a;
        b[0].loss = std::nan("");
        CHECK(firstDivergence(a, b, 1e-3)->step == 1);
        std::vector<CurvePoint> c = b;
        CHECK_FALSE(firstDivergence(b, c, 1e-3));
    }
    SECTION("a parameter B lacks parts at once")
    {
        std::vector<CurvePoint> b = a;
        b[0].params.pop_back();
        const auto d = firstDivergence(a, b, 1e-3);
        REQUIRE(d);
        CHECK(d->step == 1);
        CHECK(d->name == "b");
        CHECK_FALSE(d->b);
    }
    SECTION("only the steps both completed count")
    {
        std::vector<CurvePoint> b(a.begin(), a.begin() + 1);
        CHECK_FALSE(firstDivergence(a, b, 1e-3));
    }
}

TEST_CASE("a side crosses processes in the wire form without losing NaN, infinity or any element")
{
    StepFigures f;
    f.label = "graph";
    f.loss = std::numeric_limits<double>::infinity();
    f.forwardPasses = 2;
    f.returnedValue = true;
    f.forwardNodes = 7;
    f.backwardNodes = 9;
    f.updateNodes = 2;
    f.seconds = 0.25;
    f.runSeconds = 1.5;
    f.params.push_back(ParamGrad{"w", {2, 3}, 3.0, 1.0, {1, 2, std::nan(""), -4, 5, 6}, {}});
    f.steps = {point(1, std::nan(""), 1.0, 2.0), point(2, 0.5, -std::numeric_limits<double>::infinity(), 2.0)};
    f.laterError = "ValueError: later";
    f.startedAt = 1.7e9;
    f.endedAt = 1.7e9 + 0.125;
    const std::string wire = sideToWire(f);
    const StepFigures g = sideFromWire(wire);
    CHECK(g.label == "graph");
    CHECK(std::isinf(*g.loss));
    CHECK(g.forwardPasses == 2);
    CHECK(g.nodes() == 18);
    CHECK(g.seconds == 0.25);
    REQUIRE(g.params.size() == 1);
    CHECK(g.params[0].shape == std::vector<std::int64_t>{2, 3});
    REQUIRE(g.params[0].values.size() == 6);
    CHECK(std::isnan(g.params[0].values[2]));
    CHECK(g.params[0].values[5] == 6.0);
    REQUIRE(g.steps.size() == 2);
    CHECK(std::isnan(*g.steps[0].loss));
    CHECK(g.steps[1].params[0].gradNorm == -std::numeric_limits<double>::infinity());
    CHECK(*g.steps[1].learningRate == 0.1);
    CHECK(*g.laterError == "ValueError: later");
    CHECK(g.startedAt == 1.7e9);
    CHECK(g.endedAt == 1.7e9 + 0.125);
    // The elements travel as raw doubles after the JSON line: every bit kept, nothing extra.
    CHECK(std::memcmp(g.params[0].values.data(), f.params[0].values.data(), 6 * sizeof(double)) == 0);
    CHECK_THROWS_AS(sideFromWire(std::string_view(wire).substr(0, wire.size() - 1)), ValueError);
    CHECK_THROWS_AS(sideFromWire(wire + "x"), ValueError);
    // The report form keeps five elements and writes what is not finite as null.
    const Json report = sideToJson(f, false);
    CHECK(report["params"][0]["grad_first5"].size() == 5);
    CHECK(report["loss"].isNull());
    CHECK(report["steps"][0]["loss"].isNull());
}

TEST_CASE("a saved run report becomes a side whose first gradients are compared by their norms")
{
    const Json saved = Json::parse(R"({"script": "fit.py", "api": "2.x", "mode": "pynative", "steps": [
        {"step": 1, "loss": 2.0, "learning_rate": 0.1, "params": [{"name": "w", "shape": [1, 3], "grad_norm": 3.0,
         "grad_sum": 1.0, "grad_first5": [1, 2, 2], "value_norm": 1.0}]},
        {"step": 2, "loss": 1.0, "learning_rate": null, "params": []}]})");
    const StepFigures b = sideFromRunReport(saved, "saved run");
    CHECK(b.saved);
    CHECK(*b.loss == 2.0);
    REQUIRE(b.steps.size() == 2);
    CHECK(*b.steps[0].learningRate == 0.1);
    CHECK_FALSE(b.steps[1].learningRate);
    StepFigures a;
    a.params.push_back(ParamGrad{"w", {1, 3}, 3.0003, 1.0, {1, 2, 2.0004}, {}});
    const std::vector<ParamDiff> diff = diffGradients(a, b);
    REQUIRE(diff.size() == 1);
    CHECK(diff[0].verdict == Verdict::Close);
    CHECK_FALSE(diff[0].maxAbsDiff);
    CHECK(*diff[0].relDiff == Approx(1e-4).epsilon(1e-3));
    CHECK_THROWS_AS(sideFromRunReport(Json::parse("{}"), "x"), ValueError);
}
