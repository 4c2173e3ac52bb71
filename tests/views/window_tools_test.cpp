// The window's graph links, timeline, Play and chain-rule panel over a real Session on the
// LeNet5 sample, offscreen. SPDX-License-Identifier: MIT
#ifdef GRADSTEP_HAVE_WINDOW
#include <catch2/catch.hpp>

#include "python/host/host.h"
#include "tests/views/window_test_support.h"
#include "views/gradients_table.h"
#include "views/graph_view.h"
#include "views/source_view.h"
#include "views/tensor_inspector.h"
#include "views/window/graph_links.h"
#include "views/window/main_window.h"
#include "views/window/step_tools.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QMouseEvent>
#include <QSlider>
#include <QTextBlock>
#include <set>

using namespace gradstep;
using namespace gradstep::views;
using test::stepInto;
using test::waitForStop;

namespace {

/// A window on the sample, paused after its first node.
void open(MainWindow& window)
{
    python::Host::start();
    window.resize(1500, 950);
    window.show();
    window.openScript(test::sample("lenet5_digits.py"));
    const auto state = waitForStop(window, 0);
    REQUIRE(state);
    REQUIRE(state->status == debug::SessionStatus::Paused);
}

} // namespace

TEST_CASE("a click on a source line selects its graph nodes and a picked node marks its source line")
{
    MainWindow window(false);
    open(window);
    auto state = stepInto(window, 11);
    REQUIRE(state);
    REQUIRE(window.graphView()->waitForLayout());
    const int line = state->node->location.line;
    REQUIRE(line > 0);
    // A real click on the line's text.
    SourceView* source = window.sourceView();
    source->setCurrentLine(line);
    QCoreApplication::processEvents();
    const QRect rect = source->cursorRect(QTextCursor(source->document()->findBlockByNumber(line - 1)));
    const QPointF at(60, rect.center().y());
    QMouseEvent press(QEvent::MouseButtonPress, at, source->viewport()->mapToGlobal(at), Qt::LeftButton, Qt::LeftButton,
                      Qt::NoModifier);
    QCoreApplication::sendEvent(source->viewport(), &press);
    QMouseEvent release(QEvent::MouseButtonRelease, at, source->viewport()->mapToGlobal(at), Qt::LeftButton,
                        Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(source->viewport(), &release);

    GraphView* graph = window.graphView();
    const std::vector<int> selected = graph->selectedNodes();
    REQUIRE_FALSE(selected.empty());
    CHECK(source->linkedLines() == QSet<int>{line});
    const debug::Recorder& recorder = window.bridge().session()->recorder();
    bool current = false;
    for (int index : selected) {
        const PictureNode& node = graph->picture().nodes[std::size_t(index)];
        REQUIRE_FALSE(node.records.empty());
        for (std::uint64_t seq : node.records)
            CHECK(recorder.record(seq)->location.line == line);
        current = current || node.records.front() == state->node->seq;
    }
    CHECK(current);
    // Every executed op on that line is selected.
    std::size_t onLine = 0;
    for (const debug::RecordPtr& r : state->records)
        onLine += r->location.line == line;
    CHECK(selected.size() == onLine);

    // The other way: picking a node on another line marks that line.
    int other = -1;
    for (std::size_t i = 0; i < graph->picture().nodes.size() && other < 0; ++i) {
        const PictureNode& node = graph->picture().nodes[i];
        if (node.kind == PictureKind::Op && node.records.size() == 1 && recorder.record(node.records.front())->location.line != line)
            other = int(i);
    }
    REQUIRE(other >= 0);
    const int otherLine = recorder.record(graph->picture().nodes[std::size_t(other)].records.front())->location.line;
    graph->jumpToNode(other);
    CHECK(source->linkedLines() == QSet<int>{otherLine});
    CHECK(source->textCursor().blockNumber() == otherLine - 1);
    CHECK(graph->selectedNodes() == std::vector<int>{other});
}

TEST_CASE("the gradients table's sparklines follow the steps and a row selects its parameter in the graph")
{
    MainWindow window(false);
    open(window);
    std::shared_ptr<const debug::SessionState> state;
    for (int step = 0; step < 3; ++step) {
        const std::uint64_t shown = window.statesShown();
        REQUIRE(window.bridge().session()->runToEndOfStep());
        state = waitForStop(window, shown);
        REQUIRE(state);
    }
    // At the end of step 3: one point per step, this step's from its gradients when its summary
    // is not written yet.
    REQUIRE(state->step == 3);
    GradientsTable* table = window.gradientsTable();
    REQUIRE(table->rowCount() > 0);
    for (int row = 0; row < table->rowCount(); ++row) {
        const std::string name = table->text(row, GradientsTable::Name).toStdString();
        std::vector<double> expected;
        for (const debug::StepSummary& s : state->history)
            for (const debug::ParameterSummary& p : s.parameters)
                if (p.name == name)
                    expected.push_back(p.gradientNorm);
        if (state->history.empty() || state->history.back().step < state->step)
            for (const debug::ParameterGradient& g : state->gradients)
                if (g.name == name)
                    expected.push_back(g.stats.l2Norm);
        CHECK(expected.size() == 3);
        CHECK(table->normHistory(row) == expected);
    }
    REQUIRE(window.graphView()->waitForLayout());
    // The row of fc2.weight selects its parameter node and its update ops (Momentum/fc2.weight).
    int row = -1;
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->text(r, GradientsTable::Name) == QStringLiteral("fc2.weight"))
            row = r;
    REQUIRE(row >= 0);
    table->selectRow(row);
    const GraphView* graph = window.graphView();
    const std::vector<int> selected = graph->selectedNodes();
    REQUIRE(selected.size() >= 2);
    bool parameter = false, update = false;
    for (int index : selected) {
        const PictureNode& node = graph->picture().nodes[std::size_t(index)];
        const bool isParameter = node.kind == PictureKind::Parameter && node.title == QStringLiteral("fc2.weight");
        const bool isUpdate = node.phase == Phase::Update
            && (node.scope.endsWith(QStringLiteral("/fc2.weight")) || node.cellPath.endsWith(QStringLiteral("/fc2.weight")));
        CHECK((isParameter || isUpdate));
        parameter = parameter || isParameter;
        update = update || isUpdate;
    }
    CHECK(parameter);
    CHECK(update);
    // Into step 4: the graph is drawn whole from step 3, most nodes pending.
    state = stepInto(window);
    REQUIRE(state);
    REQUIRE(window.graphView()->waitForLayout());
    // Until step 4's backward pass the table shows step 3's gradients, sparklines included.
    REQUIRE(state->gradients.empty());
    REQUIRE(table->rowCount() == int(state->history.back().parameters.size()));
    for (int r = 0; r < table->rowCount(); ++r) {
        const debug::ParameterSummary& p = state->history.back().parameters[std::size_t(r)];
        CHECK(table->text(r, GradientsTable::Name).toStdString() == p.name);
        CHECK(table->value(r, GradientsTable::Norm) == Approx(p.gradientNorm));
        CHECK(table->normHistory(r).size() == state->history.size());
    }
    // Pending nodes (not run yet in step 4) still know their source line from step 3.
    int pendingForward = -1;
    for (std::size_t i = 0; i < graph->picture().nodes.size() && pendingForward < 0; ++i) {
        const PictureNode& node = graph->picture().nodes[i];
        if (node.kind == PictureKind::Op && node.phase == Phase::Forward && node.state == NodeState::Pending)
            pendingForward = int(i);
    }
    REQUIRE(pendingForward >= 0);
    CHECK_FALSE(window.graphLinks()->linesOfNode(pendingForward).isEmpty());
}

TEST_CASE("moving the timeline slider travels the session to that node of the step and back")
{
    MainWindow window(false);
    open(window);
    auto state = stepInto(window, 14);
    REQUIRE(state);
    StepTools* tools = window.stepTools();
    QSlider* timeline = tools->timeline();
    REQUIRE(timeline->isEnabled());
    REQUIRE(tools->timelineRecords().size() == state->records.size());
    CHECK(timeline->maximum() == int(state->records.size()) - 1);
    CHECK(timeline->value() == timeline->maximum());
    const debug::RecordPtr target = state->records[4];
    std::uint64_t shown = window.statesShown();
    timeline->setValue(4);
    state = waitForStop(window, shown);
    REQUIRE(state);
    const auto now = window.bridge().session()->state();
    REQUIRE(now->node);
    CHECK(now->node->seq == target->seq);
    CHECK(now->timeTravel);
    CHECK(window.sourceView()->currentLine() == target->location.line);
    CHECK(window.graphView()->currentNode() == window.graphView()->picture().nodeOfRecord(target->seq));
    // The slider keeps the whole step, and its right end is the live node again.
    CHECK(timeline->maximum() == 14);
    CHECK(timeline->value() == 4);
    shown = window.statesShown();
    timeline->setValue(timeline->maximum());
    REQUIRE(waitForStop(window, shown));
    CHECK_FALSE(window.bridge().session()->state()->timeTravel);
    CHECK(window.bridge().session()->state()->node->seq == state->liveNode->seq);
}

TEST_CASE("Play steps into nodes at its speed until stopped, and a backward node shows its chain rule")
{
    MainWindow window(false);
    open(window);
    StepTools* tools = window.stepTools();
    tools->setSpeed(30);
    CHECK(tools->speed() == 30);
    const std::uint64_t before = window.bridge().state()->nodesExecuted;
    tools->play();
    CHECK(tools->playing());
    // Until the backward pass starts.
    QDeadlineTimer deadline(120000);
    while (!deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        const auto s = window.bridge().state();
        if (s && s->node && s->node->phase == Phase::Backward && s->status == debug::SessionStatus::Paused)
            break;
    }
    tools->stop();
    CHECK_FALSE(tools->playing());
    test::spin(300);
    auto state = window.bridge().state();
    REQUIRE(state->node);
    REQUIRE(state->node->phase == Phase::Backward);
    CHECK(tools->nodesPlayed() >= 10);
    CHECK(state->nodesExecuted >= before + 10);
    const std::uint64_t stopped = state->nodesExecuted;
    test::spin(600);
    CHECK(window.bridge().state()->nodesExecuted == stopped);

    // The chain rule of this backward node: shapes from its record.
    TensorInspector* inspector = window.inspector();
    REQUIRE(inspector->chainRuleShown());
    REQUIRE(inspector->chainRuleView()->rule());
    const ChainRule& rule = *inspector->chainRuleView()->rule();
    REQUIRE(rule.incoming.size() == state->node->inputs.size());
    CHECK(rule.incoming[0].shape == state->node->inputs[0].stats.shape);
    REQUIRE(rule.inputs.size() == state->node->outputs.size());
    CHECK(rule.inputs[0].gradient.shape == state->node->outputs[0].stats.shape);

    // A known one: the backward of fc3's MatMul, x [32, 84] times fc3.weight [10, 84] transposed.
    for (int i = 0; i < 40 && !(state->node->phase == Phase::Backward && state->node->op == "MatMul"); ++i)
        state = stepInto(window);
    REQUIRE(state->node->op == "MatMul");
    REQUIRE(inspector->chainRuleView()->rule());
    const ChainRule& matmul = *inspector->chainRuleView()->rule();
    CHECK(matmul.op == QStringLiteral("MatMul"));
    REQUIRE(matmul.incoming.size() == 1);
    CHECK(matmul.incoming[0].shape == (Shape{32, 10}));
    CHECK(matmul.incoming[0].values.size() == 4);
    REQUIRE(matmul.inputs.size() == 2);
    CHECK(matmul.inputs[0].gradient.shape == (Shape{32, 84}));
    CHECK(matmul.inputs[1].gradient.shape == (Shape{10, 84}));
    CHECK(matmul.inputs[1].name.contains(QStringLiteral("fc3.weight")));
    // nn.Dense multiplies by the weight transposed: Y = X · Wᵀ.
    CHECK(matmul.inputs[0].local == QStringLiteral("dL/dX = dL/dY · W (Y = X · Wᵀ)"));
    CHECK(matmul.inputs[1].local == QStringLiteral("dL/dW = dL/dYᵀ · X (Y = X · Wᵀ)"));
    const QString text = inspector->chainRuleView()->plainText();
    CHECK(text.contains(QStringLiteral("dL/dy [32, 10]")));
    CHECK(text.contains(QStringLiteral("dL/dx0 [32, 84]")));
    CHECK(text.contains(QStringLiteral("dL/dx1 [10, 84]")));
    // A forward node has none.
    const std::uint64_t shown = window.statesShown();
    REQUIRE(window.bridge().session()->jumpTo(state->records.front()->seq));
    REQUIRE(waitForStop(window, shown));
    CHECK_FALSE(inspector->chainRuleShown());
}
TEST_CASE("the default layout gives the graph most of the window")
{
    MainWindow window(false);
    window.resize(1600, 1000);
    window.show();
    test::spin(200);
    const QSize graph = window.graphView()->size();
    CHECK(graph.width() > window.width() / 2);
    CHECK(graph.height() > window.height() * 55 / 100);
    // Larger than any dock (the side docks run the full height).
    for (QWidget* dock : {static_cast<QWidget*>(window.sourceView()), static_cast<QWidget*>(window.inspector()),
                          static_cast<QWidget*>(window.gradientsTable())})
        CHECK(graph.width() * graph.height() > dock->width() * dock->height());
}

TEST_CASE("a step that runs other nodes than the step before is drawn from its own records")
{
    // control_flow.py: step 1 takes the `if` (ReduceMean, Greater, one Mul), step 2 calls
    // ops.select (BroadcastTo and two Muls): the previous step cannot be its template.
    auto window = test::openWindow(test::sample("control_flow.py"));
    std::shared_ptr<const debug::SessionState> state;
    for (int i = 0; i < 40; ++i) {
        state = stepInto(*window);
        REQUIRE(state);
        if (state->step == 2 && state->node && state->node->fullName == "Mul" && state->node->location.line == 25)
            break;
    }
    REQUIRE(state->step == 2);
    REQUIRE(window->graphView()->waitForLayout());
    const int current = window->graphView()->currentNode();
    REQUIRE(current >= 0);
    CHECK(window->graphView()->nodeState(current) == NodeState::Current);
    CHECK_FALSE(window->graphView()->findNodes(QStringLiteral("BroadcastTo")).empty());
}
#endif
