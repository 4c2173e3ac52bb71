// The Compare view driven offscreen: a comparison on its worker against session::compare, a
// failing side's error, Cancel. SPDX-License-Identifier: MIT
#ifdef GRADSTEP_HAVE_WINDOW
#include "tests/views/window_test_support.h"

#include "views/charts_view.h"
#include "views/window/compare_view.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>

using namespace gradstep;
using namespace gradstep::views;
using namespace gradstep::views::test;

TEST_CASE("Compare with has_aux flipped shows the verdicts session::compare gives, on a worker")
{
    auto window = openWindow(sample("has_aux_pitfall.py"));
    const auto before = stepInto(*window, 4);
    REQUIRE(before);
    REQUIRE(before->liveNode);
    // The event loop keeps running while the comparison does.
    int ticks = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&ticks] { ++ticks; });
    ticker.start(10);
    window->startCompare(session::CompareWhat::HasAux);
    CHECK(window->comparing());
    CHECK(window->compareView()->isRunning());
    CHECK(window->bridge().session() == nullptr); // stopped while comparing
    REQUIRE(waitFor([&] { return window->compareView()->comparison().has_value(); }));
    CHECK(ticks > 0);
    CHECK_FALSE(window->comparing());
    // The session reloads afterwards, back at the node the user was at (runs are deterministic).
    REQUIRE(waitFor([&] {
        const auto s = window->bridge().state();
        return window->bridge().session() && s && s->status == debug::SessionStatus::Paused;
    }));
    const auto after = window->bridge().state();
    CHECK(after->step == before->step);
    REQUIRE(after->liveNode);
    CHECK(after->liveNode->seq == before->liveNode->seq);
    CHECK(after->liveNode->fullName == before->liveNode->fullName);
    const CompareView* view = window->compareView();
    REQUIRE(view->comparison()->ok());

    window->bridge().close(); // one script at a time in the interpreter
    session::CompareOptions options;
    options.warmUp = false;
    const session::Comparison expected = session::compare(sample("has_aux_pitfall.py").toStdString(),
                                                          session::CompareWhat::HasAux, options);
    REQUIRE(expected.ok());
    REQUIRE(view->parameterRows() == int(expected.diff.size()));
    bool sawBias = false;
    for (int row = 0; row < view->parameterRows(); ++row) {
        const session::ParamDiff& d = expected.diff[std::size_t(row)];
        CHECK(view->cell(row, CompareView::Name).toStdString() == d.name);
        CHECK(view->cell(row, CompareView::VerdictColumn) == QLatin1String(session::verdictName(d.verdict)));
        CHECK(view->highlighted(row) == (d.verdict != session::Verdict::Equal));
        CHECK(view->cell(row, CompareView::NormA).toDouble() == Approx(*d.normA).epsilon(1e-5));
        CHECK(view->cell(row, CompareView::NormB).toDouble() == Approx(*d.normB).epsilon(1e-5));
        if (d.name == "bias") {
            sawBias = true;
            CHECK(view->cell(row, CompareView::VerdictColumn) == QLatin1String("different"));
            CHECK(view->highlighted(row));
        }
    }
    CHECK(sawBias);
    CHECK(view->figure(CompareView::Setting, 0) == QLatin1String("has_aux on"));
    CHECK(view->figure(CompareView::Setting, 1) == QLatin1String("has_aux off"));
    CHECK(view->figure(CompareView::Loss, 0).toDouble() == Approx(*expected.a.loss).epsilon(1e-5));
    CHECK(view->figure(CompareView::Loss, 0) == view->figure(CompareView::Loss, 1));
    CHECK(view->figure(CompareView::ForwardPasses, 0) == QLatin1String("1"));
    CHECK(view->figure(CompareView::Error, 0).isEmpty());
    CHECK(view->chartBars() == 2 * view->parameterRows());

    // Another script: the comparison was the previous script's, and goes with it.
    window->openScript(sample("linear_regression.py"));
    CHECK_FALSE(view->comparison().has_value());
    CHECK(view->parameterRows() == 0);
    CHECK(view->chartBars() == 0);
    CHECK(view->figure(CompareView::Loss, 0).isEmpty());
}

TEST_CASE("Compare with the 1.10 API shows the failing side's error, and Cancel stops a comparison")
{
    auto window = openWindow(sample("has_aux_pitfall.py"));
    window->startCompare(session::CompareWhat::Api);
    REQUIRE(waitFor([&] { return window->compareView()->comparison().has_value(); }));
    const CompareView* view = window->compareView();
    CHECK(view->figure(CompareView::Error, 0).isEmpty());
    CHECK(view->figure(CompareView::Error, 1).contains(QStringLiteral("value_and_grad")));
    CHECK(view->figure(CompareView::Loss, 1) == QLatin1String("-"));
    CHECK(view->parameterRows() == 0);

    REQUIRE(waitFor([&] { return window->bridge().session() != nullptr; }));
    // A script that spins for a minute before its step: only Cancel ends the comparison soon.
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString slow = dir.filePath(QStringLiteral("slow_step.py"));
    {
        QFile file(slow);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("import time\nimport numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, ops\n"
                   "x = Tensor(np.ones(3, np.float32))\ny = x + x\n"
                   "start = time.time()\nwhile time.time() - start < 60:\n    pass\n"
                   "print(ms.grad(lambda t: ops.sum(t * t))(x))\n");
    }
    window->openScript(slow);
    REQUIRE(waitFor([&] { return window->bridge().session() != nullptr; }));
    QElapsedTimer clock;
    clock.start();
    window->startCompare(session::CompareWhat::HasAux);
    REQUIRE(window->comparing());
    spin(300);
    REQUIRE(window->comparing());
    window->cancelCompare();
    REQUIRE(waitFor([&] { return !window->comparing(); }, 30000));
    CHECK(clock.elapsed() < 20000);
    CHECK(view->comparison()->interrupted);
    CHECK(view->statusText().contains(QStringLiteral("Cancelled")));
    REQUIRE(waitFor([&] { return window->bridge().session() != nullptr; }));
}
TEST_CASE("Compare over 3 steps overlays both runs in the charts, as the comparison gives them")
{
    auto window = openWindow(sample("has_aux_pitfall.py"));
    window->compareView()->setSteps(3);
    window->startCompare(session::CompareWhat::HasAux);
    REQUIRE(waitFor([&] { return window->compareView()->comparison().has_value(); }));
    const session::Comparison& c = *window->compareView()->comparison();
    REQUIRE(c.ok());
    CHECK(c.steps == 3);
    REQUIRE(c.a.steps.size() == 3);
    REQUIRE(c.b.steps.size() == 3);
    REQUIRE(c.firstDivergence);
    CHECK(c.firstDivergence->step == 1);
    CHECK(c.firstDivergence->kind == session::Divergence::Kind::Gradient);
    CHECK(window->compareView()->statusText().contains(QStringLiteral("The runs part at step 1")));
    ChartsView* charts = window->chartsView();
    REQUIRE(charts->showingComparedRuns());
    // The plotted points are the comparison's losses, step by step.
    for (const auto& [label, side] : {std::pair{QStringLiteral("A: has_aux on"), &c.a},
                                      std::pair{QStringLiteral("B: has_aux off"), &c.b}}) {
        const std::vector<QPointF> points = charts->lossPointsOf(label);
        REQUIRE(points.size() == 3);
        for (std::size_t i = 0; i < 3; ++i) {
            CHECK(points[i].x() == double(i + 1));
            CHECK(points[i].y() == Approx(*side->steps[i].loss));
        }
    }
    CHECK(charts->lossPointsOf(QStringLiteral("A: has_aux on"))[1].y()
          != Approx(charts->lossPointsOf(QStringLiteral("B: has_aux off"))[1].y()).epsilon(1e-4));
    REQUIRE(charts->divergenceLine());
    CHECK(*charts->divergenceLine() == 1.0);
    // A click on side B's curve at step 2 re-runs B's settings to the start of step 2.
    REQUIRE(waitFor([&] {
        const auto s = window->bridge().state();
        return window->bridge().session() && s && s->status == debug::SessionStatus::Paused;
    }));
    emit charts->stepClicked(QStringLiteral("B: has_aux off"), 2);
    REQUIRE(waitFor([&] {
        const auto s = window->bridge().state();
        return s && s->status == debug::SessionStatus::Paused && s->step == 2 && s->history.size() == 1;
    }));
    CHECK(window->bridge().options().overrides.hasAux == run::HasAuxOverride::Off);
    const auto atTwo = window->bridge().state();
    REQUIRE(atTwo->liveNode);
    CHECK(atTwo->liveNode->phase == Phase::Forward);
    // The step before it is B's step 1: its loss is the comparison's.
    CHECK(atTwo->history.back().loss == Approx(*c.b.steps[0].loss));
    // Opening a script forgets the compared runs: they were another script's.
    window->openScript(sample("linear_regression.py"));
    CHECK_FALSE(charts->showingComparedRuns());
    CHECK(charts->lossPointsOf(QStringLiteral("A: has_aux on")).empty());
}

TEST_CASE("The window's Compare offers ranks: side A goes to the application's rank runner, B runs the full batch here")
{
    const QString script = QStringLiteral(GRADSTEP_SOURCE_DIR "/tests/dist/compare_step.py");
    auto window = openWindow(script);
    CompareView* view = window->compareView();
    view->setWhat(session::CompareWhat::Ranks);
    CHECK(view->what() == session::CompareWhat::Ranks);
    CHECK(compareWhatText(session::CompareWhat::Ranks) == QLatin1String("2 ranks / 1 rank on the full batch"));

    // Without a runner (a build or host that cannot start ranks), side A says so.
    window->startCompare(session::CompareWhat::Ranks);
    REQUIRE(waitFor([&] { return view->comparison().has_value(); }));
    CHECK(view->figure(CompareView::Error, 0).contains(QStringLiteral("cannot start ranks here")));
    CHECK(view->figure(CompareView::Error, 1).isEmpty());

    // A runner that stands in for mpirun: one process on the full batch, as the N ranks should add
    // up to; it must be asked for 2 ranks, with the optimizer's gradients.
    int calls = 0, ranksAsked = 0;
    bool optimizerGradients = false;
    window->setRunOnRanks([&](const session::CompareSide& side, const session::CompareOptions& options,
                              bool& interrupted) {
        ++calls;
        ranksAsked = side.ranks;
        optimizerGradients = side.optimizerGradients;
        session::CompareSide here = side;
        here.ranks = 0;
        here.batchScale = side.ranks;
        bool abandoned = false;
        return session::runSide(here, options, interrupted, abandoned);
    });
    REQUIRE(waitFor([&] { return window->bridge().session() != nullptr; }));
    window->startCompare(session::CompareWhat::Ranks);
    REQUIRE(waitFor([&] { return view->comparison().has_value() && !window->comparing(); }));
    CHECK(calls == 1);
    CHECK(ranksAsked == 2);
    CHECK(optimizerGradients);
    REQUIRE(view->comparison()->ok());
    CHECK(view->figure(CompareView::Setting, 0) == QLatin1String("2 ranks (rank 0)"));
    CHECK(view->figure(CompareView::Setting, 1) == QLatin1String("1 rank, full batch (2 x each batch)"));
    REQUIRE(view->parameterRows() == 4);
    for (int row = 0; row < view->parameterRows(); ++row)
        CHECK(view->cell(row, CompareView::VerdictColumn) == QLatin1String("equal"));
    CHECK(view->statusText().contains(QStringLiteral("Equal within float32 tolerance")));
}
#endif
