// The MainWindow driven offscreen over a real Session: open a sample, step into, and check the
// source line, the graph's node states, the gradients against the Session and a screenshot.
// Waits are generous (a loaded 2-core machine). SPDX-License-Identifier: MIT
#ifdef GRADSTEP_HAVE_WINDOW
#include <catch2/catch.hpp>

#include "python/host.h"
#include "tests/views/window_test_support.h"
#include "views/gradients_table.h"
#include "views/graph_view.h"
#include "views/source_view.h"
#include "views/window/main_window.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <cmath>

using namespace gradstep;
using namespace gradstep::views;
using test::stepInto;
using test::waitForStop;

TEST_CASE("stepping into the LeNet5 sample marks the source line and the graph's current node")
{
    python::Host::start();
    MainWindow window(false);
    window.resize(1400, 900);
    window.show();
    window.openScript(test::sample("lenet5_digits.py"));
    auto state = waitForStop(window, 0);
    REQUIRE(state);
    REQUIRE(state->status == debug::SessionStatus::Paused);
    for (int i = 0; i < 3; ++i)
        state = stepInto(window);
    REQUIRE(state);
    REQUIRE(state->node);
    CHECK(state->nodesExecuted == 4);
    CHECK(window.sourceView()->currentLine() == state->node->location.line);
    CHECK(window.sourceView()->currentLine() > 0);
    GraphView* graph = window.graphView();
    REQUIRE(graph->waitForLayout());
    const int current = graph->currentNode();
    REQUIRE(current >= 0);
    CHECK(graph->picture().nodes[std::size_t(current)].records.front() == state->node->seq);
    int executed = 0;
    for (std::size_t i = 0; i < graph->picture().nodes.size(); ++i)
        executed += graph->picture().nodes[i].kind == PictureKind::Op && graph->nodeState(int(i)) == NodeState::Executed;
    CHECK(executed == int(state->records.size()) - 1);
    CHECK(window.statusText().contains(QStringLiteral("step 1")));
    const QImage shot = window.grab().toImage();
    CHECK(shot.width() > 100);
    CHECK(shot.height() > 100);
    // File > Export Graph writes what the view draws.
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    REQUIRE(window.exportGraph(dir.filePath(QStringLiteral("step.svg"))));
    REQUIRE(window.exportGraph(dir.filePath(QStringLiteral("step.png"))));
    QFile svg(dir.filePath(QStringLiteral("step.svg")));
    REQUIRE(svg.open(QIODevice::ReadOnly));
    CHECK(svg.readAll().contains(QByteArray::fromStdString(state->node->op)));
    QFile png(dir.filePath(QStringLiteral("step.png")));
    REQUIRE(png.open(QIODevice::ReadOnly));
    CHECK(png.read(8) == QByteArray("\x89PNG\r\n\x1a\n", 8));
    CHECK_FALSE(window.exportGraph(dir.filePath(QStringLiteral("step.bmp"))));
}

TEST_CASE("after the first training step the gradient table holds the Session's gradients")
{
    python::Host::start();
    MainWindow window(false);
    window.show();
    window.openScript(test::sample("lenet5_digits.py"));
    REQUIRE(waitForStop(window, 0));
    const std::uint64_t shown = window.statesShown();
    REQUIRE(window.bridge().session()->runToEndOfStep());
    const auto state = waitForStop(window, shown);
    REQUIRE(state);
    REQUIRE(state->status == debug::SessionStatus::Paused);
    REQUIRE_FALSE(state->gradients.empty());
    const GradientsTable* table = window.gradientsTable();
    REQUIRE(table->rowCount() == int(state->gradients.size()));
    for (int row = 0; row < table->rowCount(); ++row) {
        const debug::ParameterGradient& g = state->gradients[std::size_t(row)];
        CHECK(table->text(row, GradientsTable::Name).toStdString() == g.name);
        if (g.gradient.defined()) {
            CHECK(table->value(row, GradientsTable::Norm) == Approx(g.stats.l2Norm));
            CHECK(table->value(row, GradientsTable::MaxAbs) == Approx(g.stats.maxAbs));
        }
    }
    // The next step's graph is drawn whole from this one: later nodes are pending.
    REQUIRE(window.bridge().session()->stepInto());
    REQUIRE(waitForStop(window, window.statesShown()));
    REQUIRE(window.graphView()->waitForLayout());
    int pending = 0;
    for (std::size_t i = 0; i < window.graphView()->picture().nodes.size(); ++i)
        pending += window.graphView()->nodeState(int(i)) == NodeState::Pending;
    CHECK(pending > 10);
}
#endif
