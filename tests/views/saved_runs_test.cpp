// Saved runs (Note [saved runs]): a finished run is kept once, listed in the Charts panel's Runs
// list of its script, drawn beside the current run, renamed and deleted; the file is a run report
// `gradstep compare --against` reads. SPDX-License-Identifier: MIT
#ifdef GRADSTEP_HAVE_WINDOW
#include "tests/views/window_test_support.h"

#include "io/json.h"
#include "views/charts_view.h"

#include <QFile>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <cmath>

using namespace gradstep;
using namespace gradstep::views;
using namespace gradstep::views::test;

namespace {

/// A window whose runs are kept in `folder`, with `script` open and run to its end.
std::unique_ptr<MainWindow> finishedRun(const QString& folder, const QString& script)
{
    python::Host::start();
    auto window = std::make_unique<MainWindow>(false);
    window->runStore().setFolder(folder);
    window->resize(1400, 900);
    window->show();
    window->openScript(script);
    REQUIRE(waitForStop(*window, 0));
    window->continueRun();
    REQUIRE(waitFor([&] {
        const auto s = window->bridge().state();
        return s && s->status == debug::SessionStatus::Finished;
    }));
    return window;
}

} // namespace

TEST_CASE("a finished run is saved once, listed by its script and drawn beside the current run")
{
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    auto window = finishedRun(dir.path(), sample("linear_regression.py"));
    REQUIRE(waitFor([&] { return window->savedRuns().size() == 1; }));
    const SavedRun first = window->savedRuns().front();
    const auto state = window->bridge().state();
    REQUIRE(first.run.steps.size() == state->history.size());
    CHECK(first.run.steps.back().loss == Approx(state->history.back().loss));
    CHECK(first.settings == QStringLiteral("as written"));
    // Shown states after the end do not save it again.
    spin(300);
    CHECK(window->savedRuns().size() == 1);

    // The file is a run report: `gradstep compare --against` reads it.
    const Json report = Json::parseFile(first.path.toStdString());
    CHECK(report["steps"].size() == state->history.size());
    CHECK(report["mode"].asString() == "pynative");
    CHECK(report["api"].asString() == "2.x");

    // Ticked in the Runs list, the saved run is drawn beside the current one: the same curve.
    ChartsView* charts = window->chartsView();
    REQUIRE(charts->setRunShown(first.label, true));
    CHECK(charts->shownRunLabels() == QStringList({QStringLiteral("Current run"), first.label}));
    const std::vector<QPointF> saved = charts->lossPointsOf(first.label);
    const std::vector<QPointF> current = charts->lossPointsOf(QStringLiteral("Current run"));
    REQUIRE(saved.size() == state->history.size());
    REQUIRE(current.size() == saved.size());
    CHECK(saved.back().y() == Approx(current.back().y()));

    // A restart is a new run: saved as well, newest first.
    window->restart();
    REQUIRE(waitForStop(*window, window->statesShown()));
    window->continueRun();
    REQUIRE(waitFor([&] { return window->savedRuns().size() == 2; }));
    CHECK(window->savedRuns().front().path != first.path);

    // Renamed and deleted from the list (the panel's context menu asks the window to).
    emit charts->savedRunRenameRequested(1, QStringLiteral("baseline"));
    REQUIRE(window->savedRuns().size() == 2);
    CHECK(window->savedRuns()[1].label == QStringLiteral("baseline"));
    CHECK(charts->shownRunLabels().contains(QStringLiteral("Current run")));
    emit charts->savedRunDeleteRequested(1);
    REQUIRE(window->savedRuns().size() == 1);
    CHECK_FALSE(QFile::exists(first.path));

    // Another script lists its own runs only.
    window->openScript(sample("xor_mlp.py"));
    CHECK(window->savedRuns().empty());
}

TEST_CASE("the run store keeps the newest runs of each script and skips broken files")
{
    QTemporaryDir dir;
    RunStore store(dir.path());
    std::vector<debug::StepSummary> steps(2);
    steps[0].step = 1;
    steps[0].loss = 2.0;
    steps[1].step = 2;
    steps[1].loss = std::nan(""); // kept as null, read back as NaN
    for (int i = 0; i < RunStore::kRunsPerScript + 2; ++i)
        REQUIRE(store.save(QStringLiteral("/a.py"), QStringLiteral("as written"), QStringLiteral("pynative"),
                           QStringLiteral("2.x"), steps)
                    .isEmpty());
    REQUIRE(store.save(QStringLiteral("/b.py"), QStringLiteral("graph"), QStringLiteral("graph"),
                       QStringLiteral("2.x"), steps)
                .isEmpty());
    const std::vector<SavedRun> a = store.runsOf(QStringLiteral("/a.py"));
    CHECK(a.size() == std::size_t(RunStore::kRunsPerScript));
    REQUIRE(store.runsOf(QStringLiteral("/b.py")).size() == 1);
    CHECK(a.front().savedAt >= a.back().savedAt);
    CHECK(a.front().run.steps.size() == 2);
    CHECK(std::isnan(a.front().run.steps[1].loss));
    QFile broken(QFileInfo(a.front().path).dir().filePath(QStringLiteral("99999999-broken.json")));
    REQUIRE(broken.open(QIODevice::WriteOnly));
    broken.write("{not json");
    broken.close();
    CHECK(store.runsOf(QStringLiteral("/a.py")).size() == std::size_t(RunStore::kRunsPerScript));
}
#endif
