// Side-by-side comparisons of a script's first training step (core/session/compare.h) on the
// shipped samples and on small scripts. SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include "session/compare.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;
using namespace gradstep::session;
using namespace gradstep::python::test;

namespace {

std::filesystem::path sample(const std::string& name)
{
    return std::filesystem::path(GRADSTEP_SOURCE_DIR) / "samples" / name;
}

Comparison compareScript(const std::filesystem::path& script, CompareWhat what)
{
    ensureHost();
    CompareOptions options;
    options.timeout = std::chrono::seconds(60);
    options.warmUp = false;
    return compare(script, what, options);
}

const ParamDiff& diffOf(const Comparison& c, const std::string& name)
{
    for (const ParamDiff& d : c.diff)
        if (d.name == name)
            return d;
    FAIL("no gradient named " << name);
    return c.diff.front();
}

std::string errorOf(const StepFigures& f) { return f.error.value_or(""); }

} // namespace

TEST_CASE("has_aux on vs off: the bias gradient of the has_aux pitfall differs, the loss does not")
{
    const Comparison c = compareScript(sample("has_aux_pitfall.py"), CompareWhat::HasAux);
    INFO(errorOf(c.a) << errorOf(c.b));
    REQUIRE(c.ok());
    CHECK(c.a.label == "has_aux on");
    CHECK(c.b.label == "has_aux off");
    REQUIRE(c.diff.size() == 2);
    const ParamDiff& bias = diffOf(c, "bias");
    CHECK(bias.verdict == Verdict::Different);
    // Off differentiates loss + sum(logits): d(sum logits)/d(bias) adds 8 rows of ones.
    CHECK(*bias.maxAbsDiff == Approx(8.0).epsilon(1e-4));
    REQUIRE(c.a.loss);
    REQUIRE(c.b.loss);
    CHECK(*c.a.loss == *c.b.loss);
    CHECK(c.a.forwardPasses == 1);
    CHECK(c.b.forwardPasses == 1);
    CHECK(c.a.backwardNodes == c.b.backwardNodes);
    CHECK_THAT(explainComparison(c), Catch::StartsWith("With has_aux off the extra outputs are differentiated")
                                         && Catch::Contains("2 of 2 gradients differ"));
}

TEST_CASE("value_and_grad vs the grad-only fallback: equal gradients, one forward pass vs two")
{
    const Comparison c = compareScript(sample("linear_regression.py"), CompareWhat::GradApi);
    INFO(errorOf(c.a) << errorOf(c.b));
    REQUIRE(c.ok());
    REQUIRE(c.diff.size() == 2);
    for (const ParamDiff& d : c.diff) {
        CHECK(d.verdict == Verdict::Equal);
        CHECK(*d.maxAbsDiff == 0.0);
    }
    CHECK(c.a.forwardPasses == 1);
    CHECK(c.b.forwardPasses == 2);
    CHECK(c.b.forwardNodes == 2 * c.a.forwardNodes);
    CHECK(c.a.backwardNodes == c.b.backwardNodes);
    CHECK(c.a.updateNodes > 0); // the step ends after SGD's update
    CHECK(c.a.updateNodes == c.b.updateNodes);
    REQUIRE(c.a.loss);
    REQUIRE(c.b.loss); // grad-only calls: the loss computed inside the call
    CHECK(*c.a.loss == *c.b.loss);
    CHECK(c.a.seconds > 0.0);
    CHECK(c.b.seconds > 0.0);
    CHECK(c.a.returnedValue);
    CHECK_FALSE(c.b.returnedValue);
    CHECK(explainComparison(c)
          == "The fallback runs the forward pass 2 times per step against value_and_grad's 1; the gradients agree "
             "(nothing random in the forward).");
}

TEST_CASE("a script written with the grad-only fallback runs its forward twice under either side")
{
    const Comparison c = compareScript(sample("grad_fallback.py"), CompareWhat::GradApi);
    INFO(errorOf(c.a) << errorOf(c.b));
    REQUIRE(c.ok());
    CHECK(c.a.forwardPasses == 2);
    CHECK(c.b.forwardPasses == 2);
    for (const ParamDiff& d : c.diff)
        CHECK(d.verdict == Verdict::Equal);
    // The two identical sides are explained, not left to puzzle over.
    CHECK_THAT(explainComparison(c), Catch::Contains("already computes the value apart from the gradients")
                                         && Catch::Contains("changes nothing"));
}

TEST_CASE("API 2.x vs 1.10: the side without mindspore.value_and_grad reports its AttributeError")
{
    const Comparison c = compareScript(sample("linear_regression.py"), CompareWhat::Api);
    CHECK_FALSE(c.ok());
    CHECK_FALSE(c.a.error);
    REQUIRE(c.b.error);
    CHECK_THAT(*c.b.error, Catch::StartsWith("AttributeError: ")
                               && Catch::Contains("value_and_grad"));
    REQUIRE(c.b.errorLocation);
    CHECK(c.b.errorLocation->line > 0);
    CHECK(c.diff.empty());
    CHECK(c.a.params.size() == 2);
    const std::string table = formatComparison(c);
    CHECK_THAT(table, Catch::Contains("B (MindSpore 1.10 API) gave no step: AttributeError"));
    const Json report = comparisonToJson(c);
    CHECK(report["b"]["loss"].isNull());
    CHECK_THAT(report["b"]["error"].asString(), Catch::Contains("AttributeError"));
}

TEST_CASE("API 2.x vs 1.10: a version wrapper gives the same step on both")
{
    const Comparison c = compareScript(sample("version_wrapper.py"), CompareWhat::Api);
    INFO(errorOf(c.a) << errorOf(c.b));
    REQUIRE(c.ok());
    for (const ParamDiff& d : c.diff)
        CHECK(d.verdict == Verdict::Equal);
}

TEST_CASE("graph mode vs PyNative says plainly when graph mode is not there to compare")
{
    const Comparison c = compareScript(sample("linear_regression.py"), CompareWhat::Mode);
    CHECK_FALSE(c.a.error);
    if (c.b.error) {
        CHECK_THAT(*c.b.error, Catch::Contains("graph mode is not available"));
    } else {
        for (const ParamDiff& d : c.diff)
            CHECK(d.verdict != Verdict::Different);
    }
}

TEST_CASE("a script without a gradient call, or failing before it, gives an error, not a step")
{
    TempDir dir;
    const Comparison none =
        compareScript(dir.write("none.py", "import mindspore as ms\nprint('hi')\n"),
                      CompareWhat::HasAux);
    REQUIRE(none.a.error);
    CHECK_THAT(*none.a.error, Catch::Contains("no gradient call"));
    const Comparison broken =
        compareScript(dir.write("broken.py", "raise ValueError('boom')\n"), CompareWhat::GradApi);
    REQUIRE(broken.a.error);
    CHECK(*broken.a.error == "ValueError: boom");
    CHECK(broken.b.error);
}

TEST_CASE("a failure after the step's gradients keeps the figures and reports it as later")
{
    TempDir dir;
    // has_aux forced on makes grad return (gradients, aux): `g.sum()` then fails after the step.
    const auto script = dir.write("later.py", R"PY(import numpy as np
import mindspore as ms
from mindspore import Tensor, Parameter
w = Parameter(Tensor(np.ones((2,), np.float32)), name="w")
def f(x):
    y = x * w
    return y.sum(), y
g = ms.grad(f, None, w)(Tensor(np.ones((2,), np.float32)))
print(float(g.sum()))
)PY");
    const Comparison c = compareScript(script, CompareWhat::HasAux);
    INFO(errorOf(c.a) << errorOf(c.b));
    REQUIRE(c.ok());
    CHECK(c.a.laterError);
    CHECK_FALSE(c.b.laterError);
    REQUIRE(c.diff.size() == 1);
    CHECK(c.diff[0].name == "w");
    CHECK(c.diff[0].verdict == Verdict::Different); // on: 1 per element; off: 2
    CHECK(c.a.params[0].sum == 2.0);
    CHECK(c.b.params[0].sum == 4.0);
}

TEST_CASE("the diff pairs gradients by name and marks those one side lacks")
{
    StepFigures a, b;
    a.params = {{"w", {2}, 1.0, 1.0, {0.6, 0.8}, {}}, {"only_a", {1}, 1.0, 1.0, {1.0}, {}}};
    b.params = {{"w", {2}, 1.0, 1.0, {0.6, 0.8000001}, {}}, {"only_b", {1}, 2.0, 2.0, {2.0}, {}}};
    const std::vector<ParamDiff> d = diffGradients(a, b);
    REQUIRE(d.size() == 3);
    CHECK(d[0].verdict == Verdict::Equal);
    CHECK(*d[0].maxAbsDiff == Approx(1e-7).margin(1e-12));
    CHECK(d[1].name == "only_a");
    CHECK(d[1].verdict == Verdict::Missing);
    CHECK_FALSE(d[1].normB);
    CHECK(d[2].name == "only_b");
    CHECK(d[2].verdict == Verdict::Missing);
    b.params[0].values = {0.6, 0.8005};
    CHECK(diffGradients(a, b)[0].verdict == Verdict::Close);
    b.params[0].values = {0.6, std::nan("")};
    CHECK(diffGradients(a, b)[0].verdict == Verdict::Different);
    b.params[0].shape = {1, 2};
    CHECK(diffGradients(a, b)[0].verdict == Verdict::Missing);
}

TEST_CASE("both sides start from the base settings and each run is announced before it starts")
{
    ensureHost();
    CompareOptions options;
    options.timeout = std::chrono::seconds(60);
    options.warmUp = false;
    // With the grad-only fallback as the base, has_aux on and off both run the forward twice.
    options.base.gradApi = run::GradApiOverride::GradFallback;
    std::vector<std::string> announced;
    options.runStarted = [&](const std::string& label, int run, int runs) {
        announced.push_back(label + " " + std::to_string(run) + "/" + std::to_string(runs));
    };
    const Comparison c = compare(sample("has_aux_pitfall.py"), CompareWhat::HasAux, options);
    INFO(errorOf(c.a) << errorOf(c.b));
    REQUIRE(c.ok());
    CHECK(c.a.forwardPasses == 2);
    CHECK(c.b.forwardPasses == 2);
    CHECK(diffOf(c, "bias").verdict == Verdict::Different);
    CHECK(announced == std::vector<std::string>{"has_aux on 1/2", "has_aux off 2/2"});
}
