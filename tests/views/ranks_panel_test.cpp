// What if > Ranks, offscreen: the open script on 2 ranks, rank 0 in the window's own session and
// rank 1 under mpirun; they stay at the same node after each step (the panel's or F11), a tensor
// shows on the selected rank (its own shard's values, also for a node or parameter picked in the
// graph), the per-rank spread of the gradients before the all-reduce with the all-reduced gradient
// equal to their mean, Pause stops a Continue at one node, a rank that raises ends them all, and
// closing the window ends every rank process.
// SPDX-License-Identifier: MIT
#ifdef GRADSTEP_HAVE_WINDOW
#include "tests/views/window_test_support.h"

#include "session/rank_wire.h"
#include "views/console_view.h"
#include "views/graph_picture.h"
#include "views/graph_view.h"
#include "views/source_view.h"
#include "views/tensor_inspector.h"
#include "views/window/ranks_panel.h"

#include <QFile>
#include <cmath>
#include <QTemporaryDir>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <string>
#include <unistd.h>

using namespace gradstep;
using namespace gradstep::views;
using namespace gradstep::views::test;

namespace {

/// mpirun running this build's gradstep for `ranks` ranks, passing the controller's socket on (as
/// the application's launcher does); empty without mpirun.
std::vector<std::string> launcher(int ranks)
{
    if (::access("/usr/bin/mpirun", X_OK) != 0)
        return {};
    std::vector<std::string> args{"/usr/bin/mpirun", "-x", session::kRankSocketVariable, "-n", std::to_string(ranks)};
    if (::geteuid() == 0)
        args.emplace_back("--allow-run-as-root");
    for (const char* flag : {"--oversubscribe", "--bind-to", "none", GRADSTEP_BINARY})
        args.emplace_back(flag);
    return args;
}

/// The processes whose command line contains `text` (pgrep -f), this test's own excluded.
std::string processesMatching(const QString& text)
{
    const std::string command = "pgrep -f -a -- '" + text.toStdString() + "' 2>/dev/null";
    std::string out;
    if (std::FILE* p = ::popen(command.c_str(), "r")) {
        char line[4096];
        while (std::fgets(line, sizeof line, p))
            if (std::string(line).find("pgrep") == std::string::npos)
                out += line;
        ::pclose(p);
    }
    return out;
}

bool processGone(pid_t pid)
{
    return pid <= 0 || (::kill(pid, 0) != 0 && errno == ESRCH);
}

/// Waits until the panel answered and is ready for the next command.
bool settle(RanksPanel& panel)
{
    spin(50);
    return waitFor([&] { return !panel.busy(); }, 60000);
}

} // namespace

TEST_CASE("What if > Ranks steps 2 ranks together, shows a tensor per rank and the gradients' spread")
{
    REQUIRE(!launcher(2).empty());
    QTemporaryDir dir;
    const QString script = dir.filePath(QStringLiteral("ranks_step.py"));
    REQUIRE(QFile::copy(QStringLiteral(GRADSTEP_SOURCE_DIR "/tests/dist/compare_step.py"), script));
    auto window = openWindow(script);
    RanksPanel* panel = window->ranksPanel();
    REQUIRE(panel);
    CHECK_FALSE(window->ranksLinked());

    // Without a launcher the window says it cannot start ranks.
    CHECK_FALSE(window->startRanks(2));
    window->setRanksLauncher(launcher);
    REQUIRE(window->startRanks(2));
    REQUIRE(waitFor([&] { return panel->ranks() == 2 && !panel->busy(); }, 60000));
    INFO(panel->statusText().toStdString());
    CHECK(panel->agreementText().startsWith(QStringLiteral("all 2 ranks paused at the same node: node #1 of step 1: ")));
    // Rank 0 is the window's own session, and the window says so.
    CHECK(window->ranksLinked());
    CHECK(window->statusText().startsWith(QStringLiteral("rank 0 of 2 ")));
    REQUIRE(window->bridge().state());
    CHECK(window->bridge().state()->nodesExecuted == 1);
    CHECK(panel->rankCell(0, RanksPanel::NodeColumn) == panel->rankCell(1, RanksPanel::NodeColumn));
    CHECK(panel->rankCell(0, RanksPanel::LocationColumn).contains(QStringLiteral("ranks_step.py:")));

    // The first node's output on rank 0, then on rank 1: their own shards, so different values.
    REQUIRE(waitFor([&] { return panel->shownTensor().rank == 0 && !panel->shownTensor().values.empty(); }, 30000));
    const std::vector<double> onRankZero = panel->shownTensor().values;
    CHECK(panel->inspector()->tensorCount() == 1);
    panel->setRank(1);
    REQUIRE(waitFor([&] { return panel->shownTensor().rank == 1 && !panel->shownTensor().values.empty(); }, 30000));
    CHECK(panel->shownTensor().values.size() == onRankZero.size());
    CHECK(panel->shownTensor().values != onRankZero);

    // Each step leaves both ranks at the next node; on to the optimizer's update, past every all-reduce.
    QString before = panel->rankCell(0, RanksPanel::NodeColumn);
    int steps = 0;
    while (steps < 200 && !panel->verdictText().startsWith(QStringLiteral("The all-reduced gradients"))) {
        panel->stepAll();
        REQUIRE(settle(*panel));
        ++steps;
        const QString now = panel->rankCell(0, RanksPanel::NodeColumn);
        REQUIRE(panel->agreementText().startsWith(QStringLiteral("all 2 ranks paused at the same node: node #")));
        CHECK(now == panel->rankCell(1, RanksPanel::NodeColumn));
        CHECK(now != before);
        before = now;
    }
    INFO(steps << " steps; " << panel->verdictText().toStdString());
    CHECK(panel->verdictText().startsWith(QStringLiteral("The all-reduced gradients are the mean of the ranks' own")));
    REQUIRE(panel->gradientRows() == 4);
    const std::size_t ranks = 2;
    for (int row = 0; row < panel->gradientRows(); ++row) {
        const session::GradientSpread& s = panel->spread()[std::size_t(row)];
        REQUIRE(s.localNorms.size() == ranks);
        CHECK(s.localNorms[0] != s.localNorms[1]);
        CHECK(s.spread == Approx(std::abs(s.localNorms[0] - s.localNorms[1])));
        REQUIRE(s.relativeToMean.has_value());
        CHECK(*s.relativeToMean <= 1e-6);
        CHECK(panel->gradientCell(row, 0) == QString::fromStdString(s.name));
        CHECK(panel->gradientCell(row, int(ranks) + 5).toDouble() <= 1e-6); // "vs mean"
    }

    const pid_t mpirun = panel->launcherPid();
    REQUIRE(mpirun > 0);
    panel->stopAll();
    REQUIRE(waitFor([&] { return !panel->running(); }, 20000));
    CHECK(panel->statusText() == QStringLiteral("The ranks were stopped."));
    CHECK(waitFor([&] { return processGone(mpirun); }, 20000));
    CHECK(processesMatching(script).empty());
}

TEST_CASE("Closing the window while the ranks run ends every rank process")
{
    REQUIRE(!launcher(2).empty());
    QTemporaryDir dir;
    const QString script = dir.filePath(QStringLiteral("ranks_loop.py"));
    {
        QFile file(script);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("import numpy as np\nfrom mindspore import ops, Tensor\n"
                   "from mindspore.communication import init\ninit()\n"
                   "x = Tensor(np.ones(4, np.float32))\nfor i in range(1000000):\n"
                   "    x = ops.AllReduce()(ops.sin(x))\n");
    }
    auto window = openWindow(script);
    window->setRanksLauncher(launcher);
    RanksPanel* panel = window->ranksPanel();
    REQUIRE(window->startRanks(2));
    REQUIRE(waitFor([&] { return panel->ranks() == 2 && !panel->busy(); }, 60000));
    panel->continueAll();
    spin(1500);
    CHECK(panel->busy()); // the ranks run their loop
    const pid_t mpirun = panel->launcherPid();
    REQUIRE(mpirun > 0);
    CHECK_FALSE(processesMatching(script).empty());
    window->close();
    CHECK(processGone(mpirun));
    CHECK(waitFor([&] { return processesMatching(script).empty(); }, 10000));
    INFO(processesMatching(script));
    window.reset();
}
namespace {

/// The index in the graph's picture of the last node titled `title` that ran, or -1.
int ranNode(MainWindow& window, const QString& title)
{
    const auto& nodes = window.graphView()->picture().nodes;
    for (int i = int(nodes.size()) - 1; i >= 0; --i)
        if (nodes[std::size_t(i)].title == title && !nodes[std::size_t(i)].records.empty())
            return i;
    return -1;
}

} // namespace

TEST_CASE("The window's session is rank 0: F11 steps every rank, a node picked in the graph shows on the chosen "
          "rank, Pause stops a Continue at one node")
{
    REQUIRE(!launcher(2).empty());
    QTemporaryDir dir;
    const QString script = dir.filePath(QStringLiteral("ranks_linked.py"));
    {
        QFile file(script);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("import numpy as np\nfrom mindspore import ops, Tensor\n"
                   "from mindspore.communication import init, get_rank\ninit()\n"
                   "x = Tensor(np.arange(4).astype(np.float32) + get_rank())\nfor i in range(1000000):\n"
                   "    x = ops.AllReduce()(ops.sin(x)) * 0.5\n");
    }
    auto window = openWindow(script);
    window->setRanksLauncher(launcher);
    RanksPanel* panel = window->ranksPanel();
    REQUIRE(window->startRanks(2));
    REQUIRE(waitFor([&] { return panel->ranks() == 2 && !panel->busy(); }, 60000));
    REQUIRE(window->ranksLinked());
    // Paused after Sin; F11 runs the AllReduce on both ranks; the window's graph is rank 0's and shows it.
    CHECK(panel->agreementText().contains(QStringLiteral("Sin (Sin, forward)")));
    window->stepInto();
    spin(50);
    REQUIRE(waitFor([&] { return !panel->busy(); }, 30000));
    CHECK(panel->agreementText().contains(QStringLiteral("AllReduce (AllReduce, forward)")));
    REQUIRE(waitFor([&] { return window->bridge().state() && window->bridge().state()->node
                                 && window->bridge().state()->node->op == "AllReduce"; }, 10000));
    REQUIRE(waitFor([&] { return ranNode(*window, QStringLiteral("AllReduce")) >= 0; }, 10000));
    // The Sin node picked in the graph shows on rank 1 (its own input, so its own values); the
    // AllReduce's output is the same on both ranks.
    panel->setRank(1);
    const int sinNode = ranNode(*window, QStringLiteral("Sin"));
    REQUIRE(sinNode >= 0);
    emit window->graphView()->nodeActivated(sinNode);
    REQUIRE(waitFor([&] { return panel->shownTensor().rank == 1 && panel->shownTensor().name.rfind("#", 0) == 0
                                 && !panel->shownTensor().values.empty(); }, 20000));
    const std::vector<double> sinOnRankOne = panel->shownTensor().values;
    REQUIRE(sinOnRankOne.size() == 4);
    for (int k = 0; k < 4; ++k)
        CHECK(sinOnRankOne[std::size_t(k)] == Approx(std::sin(k + 1.0)).epsilon(1e-6));
    // Continue, then Pause: both ranks stop at one node, the window's session with them.
    window->continueRun();
    spin(1500);
    CHECK(panel->busy());
    window->pause();
    REQUIRE(waitFor([&] { return !panel->busy(); }, 20000));
    INFO(panel->agreementText().toStdString() << " | " << panel->statusText().toStdString());
    CHECK(panel->agreementText().startsWith(QStringLiteral("all 2 ranks paused at the same node: node #")));
    CHECK(panel->running());
    REQUIRE(waitFor([&] { return window->bridge().state() && window->bridge().state()->status
                                 == debug::SessionStatus::Paused; }, 10000));
    CHECK(panel->agreementText().contains(QString::fromStdString(window->bridge().state()->node->fullName)));
    CHECK(window->bridge().state()->nodesExecuted > 10);
    window->stop();
    REQUIRE(waitFor([&] { return !panel->running() && !window->ranksLinked(); }, 20000));
    CHECK(waitFor([&] { return processesMatching(script).empty(); }, 10000));
}
TEST_CASE("The data-parallel sample in the window: a line breakpoint stops every rank after the all-reduce, "
          "the graph shows the AllReduce nodes, the gradients are the ranks' mean, a picked parameter shows rank 1's")
{
    REQUIRE(!launcher(2).empty());
    auto window = openWindow(sample("data_parallel.py"));
    window->setRanksLauncher(launcher);
    RanksPanel* panel = window->ranksPanel();
    emit window->sourceView()->breakpointToggleRequested(82); // optimizer(grads)
    REQUIRE(window->startRanks(2));
    REQUIRE(waitFor([&] { return panel->ranks() == 2 && !panel->busy() && panel->gradientRows() > 0; }, 60000));
    INFO(panel->agreementText().toStdString() << " | " << panel->statusText().toStdString());
    CHECK(panel->agreementText().startsWith(QStringLiteral("all 2 ranks paused at the same node: ")));
    CHECK(panel->verdictText().startsWith(QStringLiteral("The all-reduced gradients are the mean of the ranks' own")));
    REQUIRE(waitFor([&] { return ranNode(*window, QStringLiteral("AllReduce")) >= 0; }, 20000));
    const auto state = window->bridge().state();
    REQUIRE(state);
    REQUIRE(state->line.has_value());
    CHECK(state->line->line == 82);
    CHECK(window->statusText().startsWith(QStringLiteral("rank 0 of 2 ")));
    // A parameter picked in the graph: its own gradient on the rank chosen in the panel.
    panel->setRank(1);
    const auto& nodes = window->graphView()->picture().nodes;
    int parameter = -1;
    for (int i = 0; i < int(nodes.size()) && parameter < 0; ++i)
        if (nodes[std::size_t(i)].kind == PictureKind::Parameter)
            parameter = i;
    REQUIRE(parameter >= 0);
    emit window->graphView()->nodeActivated(parameter);
    REQUIRE(waitFor([&] { return panel->shownTensor().rank == 1 && panel->shownTensor().name.rfind("grad:", 0) == 0
                                 && !panel->shownTensor().values.empty(); }, 20000));
    const std::string name = panel->shownTensor().name.substr(5);
    bool listed = false;
    for (const session::GradientSpread& g : panel->spread())
        if (g.name == name) {
            listed = true;
            double squares = 0;
            for (double v : panel->shownTensor().values)
                squares += v * v;
            CHECK(std::sqrt(squares) == Approx(g.localNorms[1]).epsilon(1e-6)); // rank 1's own, before the all-reduce
        }
    CHECK(listed);
    window->stop();
    REQUIRE(waitFor([&] { return !panel->running() && !window->ranksLinked(); }, 20000));
}
TEST_CASE("A rank that raises while the window is rank 0 ends the ranks with its diagnostic and unlinks the window")
{
    REQUIRE(!launcher(2).empty());
    QTemporaryDir dir;
    const QString script = dir.filePath(QStringLiteral("ranks_raise.py"));
    {
        QFile file(script);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("import numpy as np\nfrom mindspore import ops, Tensor\n"
                   "from mindspore.communication import init, get_rank\ninit()\n"
                   "x = ops.exp(Tensor(np.ones(3, np.float32)))\nif get_rank() == 1:\n"
                   "    raise ValueError('rank one refuses')\nprint(ops.AllReduce()(x))\n");
    }
    auto window = openWindow(script);
    window->setRanksLauncher(launcher);
    RanksPanel* panel = window->ranksPanel();
    REQUIRE(window->startRanks(2));
    REQUIRE(waitFor([&] { return panel->ranks() == 2 && !panel->busy(); }, 60000));
    window->continueRun();
    REQUIRE(waitFor([&] { return !panel->running(); }, 30000));
    INFO(panel->statusText().toStdString());
    CHECK(panel->statusText().startsWith(QStringLiteral("The ranks ended: rank 1 failed; the other ranks were stopped")));
    CHECK(panel->statusText().contains(QStringLiteral("ValueError: rank one refuses")));
    REQUIRE(waitFor([&] { return !window->ranksLinked(); }, 10000));
    // Rank 0, waiting in its all-reduce for rank 1, fails there: the window's session says why.
    REQUIRE(waitFor([&] { return window->bridge().state()
                                 && window->bridge().state()->status == debug::SessionStatus::Failed; }, 20000));
    CHECK(window->bridge().state()->diagnostic->format().find("the ranks ended") != std::string::npos);
    CHECK(waitFor([&] { return processesMatching(script).empty(); }, 10000));
}
TEST_CASE("Rank 0 in the window runs every collective and their gradients through the relay, and a group of its own")
{
    REQUIRE(!launcher(2).empty());
    QTemporaryDir dir;
    const QString script = dir.filePath(QStringLiteral("ranks_collectives.py"));
    {
        QFile file(script);
        REQUIRE(file.open(QIODevice::WriteOnly));
        file.write("import runpy\nrunpy.run_path('" GRADSTEP_SOURCE_DIR "/tests/dist/collectives.py')\n"
                   "from mindspore import ops, Tensor\n"
                   "from mindspore.communication import create_group, destroy_group, get_rank\n"
                   "create_group('pair', [1, 0])\n"
                   "y = ops.AllReduce(group='pair')(Tensor([get_rank() + 1.0]))\n"
                   "assert float(y.asnumpy()[0]) == 3.0, y\ndestroy_group('pair')\n"
                   "print('group ok on rank %d' % get_rank())\n");
    }
    auto window = openWindow(script);
    window->setRanksLauncher(launcher);
    RanksPanel* panel = window->ranksPanel();
    REQUIRE(window->startRanks(2));
    REQUIRE(waitFor([&] { return panel->ranks() == 2 && !panel->busy(); }, 60000));
    window->continueRun();
    spin(50);
    REQUIRE(waitFor([&] { return !panel->busy(); }, 60000));
    INFO(panel->agreementText().toStdString() << " | " << panel->statusText().toStdString());
    CHECK(panel->agreementText() == QStringLiteral("all 2 ranks finished"));
    REQUIRE(waitFor([&] { return window->console()->toPlainText().contains(QStringLiteral("group ok on rank 0")); },
                    10000));
    CHECK(window->console()->toPlainText().contains(QStringLiteral("collectives ok on rank 0 of 2")));
    window->stop();
    REQUIRE(waitFor([&] { return !panel->running() && !window->ranksLinked(); }, 20000));
}
#endif
