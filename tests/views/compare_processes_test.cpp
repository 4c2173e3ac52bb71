// The window's Compare over several steps runs both sides at once in two gradstep processes
// (session/compare_processes.h): the same results as one process gives, Stop ending both, a
// failing side's diagnostic beside the other side's curves. SPDX-License-Identifier: MIT
#ifdef GRADSTEP_HAVE_WINDOW
#include "tests/views/window_test_support.h"

#include "views/window/compare_view.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>

using namespace gradstep;
using namespace gradstep::views;
using namespace gradstep::views::test;

namespace {

void checkSameCurve(const std::vector<session::CurvePoint>& got, const std::vector<session::CurvePoint>& expected)
{
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].step == expected[i].step);
        REQUIRE(got[i].loss);
        CHECK(*got[i].loss == *expected[i].loss); // runs are deterministic, bit for bit
        REQUIRE(got[i].params.size() == expected[i].params.size());
        for (std::size_t p = 0; p < got[i].params.size(); ++p) {
            CHECK(got[i].params[p].name == expected[i].params[p].name);
            CHECK(got[i].params[p].gradNorm == expected[i].params[p].gradNorm);
            CHECK(got[i].params[p].valueNorm == expected[i].params[p].valueNorm);
        }
    }
}

} // namespace

TEST_CASE("the window's Compare over 4 steps runs both sides at once and gives what one process gives")
{
    auto window = openWindow(sample("has_aux_pitfall.py"));
    int ticks = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&ticks] { ++ticks; });
    ticker.start(10);
    window->compareView()->setSteps(4);
    window->startCompare(session::CompareWhat::HasAux);
    REQUIRE(waitFor([&] { return window->compareView()->comparison().has_value(); }));
    CHECK(ticks > 0); // the window kept handling events meanwhile
    const session::Comparison c = *window->compareView()->comparison();
    REQUIRE(c.ok());
    // Each child recorded when its run started and ended: the two spans overlap.
    CHECK(c.a.startedAt > 0.0);
    CHECK(c.b.startedAt > 0.0);
    CHECK(c.a.startedAt < c.b.endedAt);
    CHECK(c.b.startedAt < c.a.endedAt);

    REQUIRE(waitFor([&] { return window->bridge().session() != nullptr; }));
    window->bridge().close(); // one script at a time in this process's interpreter
    session::CompareOptions options;
    options.steps = 4;
    options.warmUp = false;
    const session::Comparison expected =
        session::compare(sample("has_aux_pitfall.py").toStdString(), session::CompareWhat::HasAux, options);
    REQUIRE(expected.ok());
    // In one process the sides run one after the other: the check above can tell.
    CHECK(expected.a.endedAt <= expected.b.startedAt);
    CHECK(c.a.label == expected.a.label);
    CHECK(c.b.label == expected.b.label);
    checkSameCurve(c.a.steps, expected.a.steps);
    checkSameCurve(c.b.steps, expected.b.steps);
    CHECK(c.a.forwardPasses == expected.a.forwardPasses);
    CHECK(c.b.nodes() == expected.b.nodes());
    REQUIRE(c.diff.size() == expected.diff.size());
    for (std::size_t i = 0; i < c.diff.size(); ++i) {
        CHECK(c.diff[i].name == expected.diff[i].name);
        CHECK(c.diff[i].verdict == expected.diff[i].verdict);
        CHECK(c.diff[i].maxAbsDiff == expected.diff[i].maxAbsDiff);
    }
    REQUIRE(c.firstDivergence);
    REQUIRE(expected.firstDivergence);
    CHECK(c.firstDivergence->step == expected.firstDivergence->step);
    CHECK(c.firstDivergence->kind == expected.firstDivergence->kind);
    CHECK(c.firstDivergence->name == expected.firstDivergence->name);
}

TEST_CASE("the window's Compare in two processes keeps a failing side's diagnostic, and Stop ends both")
{
    auto window = openWindow(sample("has_aux_pitfall.py"));
    window->compareView()->setSteps(3);
    window->startCompare(session::CompareWhat::Api);
    REQUIRE(waitFor([&] { return window->compareView()->comparison().has_value(); }));
    {
        const session::Comparison& c = *window->compareView()->comparison();
        CHECK_FALSE(c.a.error);
        CHECK(c.a.steps.size() == 3);
        REQUIRE(c.b.error);
        CHECK(c.b.error->find("has no attribute 'value_and_grad'") != std::string::npos);
        REQUIRE(c.b.errorLocation);
        CHECK(c.b.errorLocation->line > 0);
    }
    CHECK(window->compareView()->figure(CompareView::Error, 1).contains(QStringLiteral("value_and_grad")));

    REQUIRE(waitFor([&] { return window->bridge().session() != nullptr; }));
    // Both sides spin for a minute before their first step: only Stop ends the comparison soon.
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString slow = dir.filePath(QStringLiteral("slow_steps.py"));
    {
        QFile file(slow);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("import time\nimport numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, ops\n"
                   "x = Tensor(np.ones(3, np.float32))\ny = x + x\n"
                   "start = time.time()\nwhile time.time() - start < 60:\n    pass\n"
                   "for _ in range(3):\n    print(ms.grad(lambda t: ops.sum(t * t))(x))\n");
    }
    window->openScript(slow);
    REQUIRE(waitFor([&] { return window->bridge().session() != nullptr; }));
    QElapsedTimer clock;
    clock.start();
    window->startCompare(session::CompareWhat::HasAux);
    REQUIRE(window->comparing());
    spin(1500); // both children are inside the loop by now
    REQUIRE(window->comparing());
    window->cancelCompare();
    REQUIRE(waitFor([&] { return !window->comparing(); }, 30000));
    CHECK(clock.elapsed() < 20000); // both children ended: the comparison waits for the two
    const session::Comparison& c = *window->compareView()->comparison();
    CHECK(c.interrupted);
    CHECK(c.a.error == std::optional<std::string>("interrupted"));
    CHECK(c.b.error == std::optional<std::string>("interrupted"));
    REQUIRE(waitFor([&] { return window->bridge().session() != nullptr; }));
}
#endif
