// The window's tools driven offscreen over real Sessions: Run N steps, the PyNative/graph
// switch, the run progress with Cancel, the breakpoint and watchpoint lists, the chart and
// visible-graph exports and the charts' axes and palette. SPDX-License-Identifier: MIT
#ifdef GRADSTEP_HAVE_WINDOW
#include "tests/views/window_test_support.h"

#include "views/charts_view.h"
#include "views/console_view.h"
#include "views/graph_items.h"
#include "views/graph_view.h"
#include "views/source_view.h"
#include "views/window/breakpoints_panel.h"
#include "views/window/run_progress.h"

#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <QTimer>

using namespace gradstep;
using namespace gradstep::views;
using namespace gradstep::views::test;

TEST_CASE("Run N steps ends paused after N training steps")
{
    auto window = openWindow(sample("linear_regression.py"));
    const std::uint64_t shown = window->statesShown();
    window->runSteps(3);
    const auto state = waitForStop(*window, shown);
    REQUIRE(state);
    CHECK(state->status == debug::SessionStatus::Paused);
    CHECK(state->why.reason == debug::PauseReason::Command);
    CHECK(state->history.size() == 3);
    CHECK(state->history.back().step == 3);
    CHECK(window->statusText().contains(QStringLiteral("paused")));
    CHECK(window->chartsView()->lossPoints() == 3);
}

TEST_CASE("the What-if mode switch restarts in graph mode: the status says so and the graph ran")
{
    auto window = openWindow(sample("linear_regression.py"));
    CHECK(window->statusText().contains(QStringLiteral("mode PyNative")));
    QAction* graph = menuAction(*window, QStringLiteral("&What if"), QStringLiteral("Graph"));
    REQUIRE(graph);
    const std::uint64_t shown = window->statesShown();
    graph->trigger();
    REQUIRE(window->bridge().options().overrides.mode == run::ModeOverride::Graph);
    REQUIRE(waitForStop(*window, shown));
    const std::uint64_t before = window->statesShown();
    REQUIRE(window->bridge().session()->runToEndOfStep());
    const auto state = waitForStop(*window, before);
    REQUIRE(state);
    REQUIRE(state->status == debug::SessionStatus::Paused);
    CHECK(window->statusText().contains(QStringLiteral("mode graph")));
    REQUIRE_FALSE(state->compiledGraphs.empty());
    REQUIRE(state->compiledGraphs.front()->graph);
    // The records of the step ran as nodes of the compiled graph, and the view draws them.
    int graphRecords = 0;
    for (const debug::RecordPtr& r : state->records)
        graphRecords += r->graphNode.has_value();
    CHECK(graphRecords > 0);
    REQUIRE(window->graphView()->waitForLayout());
    int ops = 0;
    for (const PictureNode& n : window->graphView()->picture().nodes)
        ops += n.kind == PictureKind::Op;
    CHECK(ops > 0);
}

TEST_CASE("a long continue runs with the event loop alive, a progress bar, and Cancel pauses it")
{
    auto window = openWindow(sample("lenet5_digits.py"));
    int ticks = 0;
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, [&ticks] { ++ticks; });
    ticker.start(10);
    window->continueRun();
    REQUIRE(window->bridge().busy());
    spin(600);
    CHECK(ticks >= 20); // 10 ms ticks over 600 ms: the loop was not blocked
    REQUIRE(window->bridge().busy());
    CHECK(window->runProgress()->active());
    CHECK(window->runProgress()->text().contains(QStringLiteral("running")));
    CHECK(window->runProgress()->maximum() == 0); // an open-ended run: busy bar
    const std::uint64_t shown = window->statesShown();
    window->runProgress()->cancel();
    const auto state = waitForStop(*window, shown, 60000);
    REQUIRE(state);
    CHECK(state->status == debug::SessionStatus::Paused);
    CHECK(state->why.reason == debug::PauseReason::Pause);
    REQUIRE(waitFor([&] { window->runProgress()->poll(); return !window->runProgress()->active(); }, 5000));
}

TEST_CASE("Run N steps shows steps done of N in the status bar progress")
{
    auto window = openWindow(sample("lenet5_digits.py"));
    // 150 of the sample's 184 steps: long enough (about a second) for the bar, shown after
    // 200 ms, to be cancelled before the run ends even on a quiet machine.
    window->runSteps(150);
    REQUIRE(waitFor([&] { return window->runProgress()->active(); }, 30000));
    CHECK(window->runProgress()->maximum() == 150);
    CHECK(window->runProgress()->value() <= 150);
    const std::uint64_t shown = window->statesShown();
    window->runProgress()->cancel();
    const auto state = waitForStop(*window, shown, 60000);
    REQUIRE(state);
    CHECK(state->why.reason == debug::PauseReason::Pause);
    CHECK(state->history.size() < 150);
}

TEST_CASE("the breakpoint list adds a watchpoint the session pauses on, shows errors inline, and "
          "keeps the gutter in sync")
{
    auto window = openWindow(sample("linear_regression.py"));
    BreakpointsPanel* panel = window->breakpointsPanel();
    // A bad condition: an inline error, no row, no crash.
    CHECK_FALSE(panel->add(QStringLiteral("tensor:max_abs >> 1e3"), BreakpointsPanel::Kind::Breakpoint).isEmpty());
    CHECK_FALSE(panel->errorText().isEmpty());
    CHECK_FALSE(panel->add(QStringLiteral("explodingg=3"), BreakpointsPanel::Kind::Watchpoint).isEmpty());
    CHECK(panel->rowCount() == 0);

    // A source line breakpoint from the list appears in the gutter, and leaves it with the row.
    REQUIRE(panel->add(QStringLiteral("linear_regression.py:31"), BreakpointsPanel::Kind::Breakpoint).isEmpty());
    CHECK(panel->errorText().isEmpty());
    CHECK(window->sourceView()->breakpointLines().contains(31));
    REQUIRE(panel->rowCount() == 1);
    REQUIRE(panel->remove(0));
    CHECK(window->sourceView()->breakpointLines().isEmpty());
    CHECK(panel->rowCount() == 0);
    // The gutter's toggle shows in the list.
    emit window->sourceView()->breakpointToggleRequested(31);
    QCoreApplication::processEvents();
    CHECK(panel->rowCount() == 1);
    emit window->sourceView()->breakpointToggleRequested(31);
    QCoreApplication::processEvents();
    CHECK(panel->rowCount() == 0);

    // A tensor condition in the Session's syntax is fine, spaces and all.
    REQUIRE(panel->add(QStringLiteral("tensor:max_abs > 1e3"), BreakpointsPanel::Kind::Breakpoint).isEmpty());
    REQUIRE(panel->rowCount() == 1);
    CHECK(panel->conditionAt(0).startsWith(QStringLiteral("tensor:")));
    REQUIRE(panel->remove(0));
    CHECK(window->bridge().session()->breakpoints().empty());

    REQUIRE(panel->add(QStringLiteral("exploding=1e-3"), BreakpointsPanel::Kind::Watchpoint).isEmpty());
    REQUIRE(panel->rowCount() == 1);
    CHECK(panel->kindAt(0) == BreakpointsPanel::Kind::Watchpoint);
    const int id = panel->idAt(0);
    const std::uint64_t shown = window->statesShown();
    window->continueRun();
    const auto state = waitForStop(*window, shown);
    REQUIRE(state);
    REQUIRE(state->why.reason == debug::PauseReason::Watchpoint);
    REQUIRE_FALSE(state->why.watchHits.empty());
    CHECK(state->why.watchHits.front().watchpointId == id);
    CHECK(panel->hitsAt(0) >= 1);

    // Disabled in the list, it no longer pauses: the run goes to its end.
    REQUIRE(panel->setEnabled(0, false));
    CHECK_FALSE(panel->enabledAt(0));
    const std::uint64_t again = window->statesShown();
    window->continueRun();
    const auto end = waitForStop(*window, again);
    REQUIRE(end);
    CHECK(end->why.reason == debug::PauseReason::End);

    // A restart keeps the list's conditions, still disabled.
    window->restart();
    REQUIRE(waitFor([&] { return panel->rowCount() == 1 && window->bridge().session()
                                 && window->bridge().session()->watchpoints().size() == 1; }, 60000));
    CHECK_FALSE(window->bridge().session()->watchpoints().front().enabled);

    // Added right after a new session opened, before the list restored the others: once.
    window->restart();
    REQUIRE(panel->add(QStringLiteral("nan"), BreakpointsPanel::Kind::Watchpoint).isEmpty());
    spin(300);
    REQUIRE(window->bridge().session());
    CHECK(window->bridge().session()->watchpoints().size() == 2);
    CHECK(panel->rowCount() == 2);
}

TEST_CASE("chart exports: the CSV holds the session's history, the PNG and SVG are real pictures")
{
    auto window = openWindow(sample("linear_regression.py"));
    const std::uint64_t shown = window->statesShown();
    window->runSteps(4);
    const auto state = waitForStop(*window, shown);
    REQUIRE(state);
    REQUIRE(state->history.size() == 4);
    window->showView(MainWindow::View::Charts);
    QCoreApplication::processEvents();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString csvPath = dir.filePath(QStringLiteral("charts.csv"));
    REQUIRE(window->exportCharts(csvPath));
    const QStringList lines = QString::fromUtf8(readAll(csvPath)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    REQUIRE(lines.size() == 5);
    const QStringList header = lines[0].split(QLatin1Char(','));
    REQUIRE(header.size() >= 3);
    CHECK(header[0] == QLatin1String("step"));
    CHECK(header[1] == QLatin1String("loss"));
    CHECK(header[2] == QLatin1String("learning_rate")); // the sample's SGD reports its rate
    for (std::size_t i = 0; i < state->history.size(); ++i) {
        const debug::StepSummary& step = state->history[i];
        const QStringList cells = lines[int(i) + 1].split(QLatin1Char(','));
        REQUIRE(cells.size() == header.size());
        CHECK(cells[0].toLongLong() == step.step);
        CHECK(cells[1].toDouble() == Approx(step.loss).epsilon(1e-12));
        CHECK(cells[2].toDouble() == Approx(step.learningRate).epsilon(1e-12));
        for (const debug::ParameterSummary& p : step.parameters) {
            const qsizetype column = header.indexOf(QString::fromStdString(p.name));
            REQUIRE(column >= 3);
            CHECK(cells[column].toDouble() == Approx(p.gradientNorm).epsilon(1e-12));
        }
    }
    const QString pngPath = dir.filePath(QStringLiteral("charts.png"));
    REQUIRE(window->exportCharts(pngPath));
    const QImage png(pngPath);
    REQUIRE_FALSE(png.isNull());
    CHECK(png.width() >= 640);
    CHECK(distinctColours(png) > 20);
    const QString svgPath = dir.filePath(QStringLiteral("charts.svg"));
    REQUIRE(window->exportCharts(svgPath));
    const QByteArray svg = readAll(svgPath);
    CHECK(svg.contains("<svg"));
    // Vector drawing: the series and grid as polylines and paths, the titles as text.
    CHECK(svg.count("<polyline") + svg.count("<path") > 10);
    CHECK(svg.contains("Loss and learning rate (right) per step"));
    CHECK_FALSE(window->exportCharts(dir.filePath(QStringLiteral("charts.bmp"))));
}

TEST_CASE("the visible part of the graph exports as SVG, PNG, PDF and DOT")
{
    auto window = openWindow(sample("lenet5_digits.py"));
    const std::uint64_t shown = window->statesShown();
    REQUIRE(window->bridge().session()->runToEndOfStep());
    REQUIRE(waitForStop(*window, shown));
    GraphView* graph = window->graphView();
    REQUIRE(graph->waitForLayout());
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    // Zoomed in, the view shows part of the graph: the DOT holds fewer nodes than the whole.
    graph->fitAll();
    graph->zoomBy(4.0);
    QCoreApplication::processEvents();
    const QString dot = dir.filePath(QStringLiteral("visible.dot"));
    REQUIRE(window->exportVisibleGraph(dot));
    const QByteArray dotText = readAll(dot);
    CHECK(dotText.startsWith("digraph"));
    const qsizetype visibleNodes = dotText.count("fixedsize=true");
    CHECK(visibleNodes > 0);
    CHECK(visibleNodes < qsizetype(graph->picture().nodes.size()));
    const QString svgPath = dir.filePath(QStringLiteral("visible.svg"));
    REQUIRE(window->exportVisibleGraph(svgPath));
    CHECK(readAll(svgPath).count("<path") > 3);
    const QString pngPath = dir.filePath(QStringLiteral("visible.png"));
    REQUIRE(window->exportVisibleGraph(pngPath));
    const QImage png(pngPath);
    REQUIRE_FALSE(png.isNull());
    CHECK(png.width() == 2 * graph->viewport()->width());
    CHECK(distinctColours(png) > 10);
    const QString pdfPath = dir.filePath(QStringLiteral("visible.pdf"));
    REQUIRE(window->exportVisibleGraph(pdfPath));
    CHECK(readAll(pdfPath).startsWith("%PDF"));
    CHECK_FALSE(window->exportVisibleGraph(dir.filePath(QStringLiteral("visible.bmp"))));
}

TEST_CASE("the gradient-norm axis stays at or above zero, and the log scale shows positive norms")
{
    // LeNet5's bias gradients are near zero next to fc3's: a padded axis would dip below it.
    auto window = openWindow(sample("lenet5_digits.py"));
    const std::uint64_t shown = window->statesShown();
    window->runSteps(3);
    const auto state = waitForStop(*window, shown);
    REQUIRE(state);
    double smallest = HUGE_VAL, largest = 0.0;
    for (const debug::StepSummary& step : state->history)
        for (const debug::ParameterSummary& p : step.parameters) {
            smallest = std::min(smallest, p.gradientNorm);
            largest = std::max(largest, p.gradientNorm);
        }
    REQUIRE(smallest < 0.05 * (largest - smallest));
    ChartsView* charts = window->chartsView();
    REQUIRE(charts->gradientSeries() > 0);
    CHECK(charts->normAxisRange().first == 0.0);
    CHECK(charts->normAxisRange().second >= largest);
    CHECK(charts->normAxisRange().second > charts->normAxisRange().first);
    charts->setLogScale(true);
    CHECK(charts->logScale());
    CHECK(charts->normAxisRange().first > 0.0);
    CHECK(charts->gradientSeries() > 0);
}

TEST_CASE("on a dark palette the exported charts are dark")
{
    auto window = openWindow(sample("linear_regression.py"));
    const std::uint64_t shown = window->statesShown();
    window->runSteps(3);
    REQUIRE(waitForStop(*window, shown));
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(45, 45, 48));
    dark.setColor(QPalette::Base, QColor(30, 30, 32));
    dark.setColor(QPalette::Text, QColor(220, 220, 220));
    dark.setColor(QPalette::WindowText, QColor(220, 220, 220));
    window->setPalette(dark);
    window->showView(MainWindow::View::Charts);
    QCoreApplication::processEvents();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("dark.png"));
    REQUIRE(window->exportCharts(path));
    const QImage image(path);
    REQUIRE_FALSE(image.isNull());
    double lightness = 0.0;
    int samples = 0;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7, ++samples)
            lightness += QColor(image.pixel(x, y)).lightness();
    CHECK(lightness / samples < 100.0);
}

TEST_CASE("when the palette turns dark the graph redraws its nodes in the dark colours")
{
    auto window = openWindow(sample("linear_regression.py"));
    GraphView* graph = window->graphView();
    REQUIRE(graph->waitForLayout());
    const int current = graph->currentNode();
    REQUIRE(current >= 0);
    const PictureNode& node = graph->picture().nodes[std::size_t(current)];
    // Inside the box, left of its centred text.
    const QPoint at = graph->mapFromScene(QPointF(node.box.left() + 5, node.box.center().y()));
    const auto colourAt = [&] { return graph->viewport()->grab().toImage().pixelColor(at); };
    const QColor light = nodeStyle(node.kind, node.phase, NodeState::Current, false).fill;
    const QColor dark = nodeStyle(node.kind, node.phase, NodeState::Current, true).fill;
    REQUIRE(light != dark);
    const auto near = [](const QColor& a, const QColor& b) {
        return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) < 30;
    };
    CHECK(near(colourAt(), light));
    QPalette palette = window->palette();
    palette.setColor(QPalette::Base, QColor(30, 30, 32));
    palette.setColor(QPalette::Window, QColor(45, 45, 48));
    palette.setColor(QPalette::Text, QColor(220, 220, 220));
    window->setPalette(palette);
    QCoreApplication::processEvents();
    CHECK(near(colourAt(), dark));
    CHECK(graph->currentNode() == current); // the states survive the redraw
}
#endif

TEST_CASE("a nan watchpoint's stops say their message intact in the console and the status bar")
{
    auto window = openWindow(sample("nan_from_log.py"));
    REQUIRE(window->breakpointsPanel()->add(QStringLiteral("nan"), BreakpointsPanel::Kind::Watchpoint).isEmpty());
    for (int stop = 0; stop < 3; ++stop) {
        const std::uint64_t shown = window->statesShown();
        window->continueRun();
        const auto state = waitForStop(*window, shown);
        REQUIRE(state);
        const QString status = window->statusText();
        INFO(status.toStdString());
        CHECK_FALSE(status.contains(QChar::ReplacementCharacter));
        CHECK(status.contains(QString::fromStdString(state->why.message)));
        if (!state->why.message.empty()) {
            CHECK(QString::fromStdString(state->why.message).at(0).isLetter());
        }
        if (state->status != debug::SessionStatus::Paused)
            break;
    }
    const QString console = window->console()->toPlainText();
    INFO(console.toStdString());
    CHECK_FALSE(console.contains(QChar::ReplacementCharacter));
    CHECK(console.contains(QStringLiteral("NaN/Inf")));
}

TEST_CASE("a gutter breakpoint on a line without ops stops there, and one on a line without code is hollow")
{
    auto window = openWindow(sample("linear_regression.py"));
    emit window->sourceView()->breakpointToggleRequested(33); // `if step % 20 ...`: no tensor op
    emit window->sourceView()->breakpointToggleRequested(23); // a blank line
    QCoreApplication::processEvents();
    const QHash<int, QString> hollow = window->sourceView()->unverifiedLines();
    CHECK(hollow.value(23) == QStringLiteral("no code on line 23"));
    CHECK_FALSE(hollow.contains(33));

    const std::uint64_t shown = window->statesShown();
    window->continueRun();
    const auto state = waitForStop(*window, shown);
    REQUIRE(state);
    CHECK(state->why.reason == debug::PauseReason::Breakpoint);
    REQUIRE(state->line);
    CHECK(state->line->line == 33);
    CHECK(window->sourceView()->currentLine() == 33);
    CHECK(window->statusText().contains(QStringLiteral("before line 33")));
}
