// Graph mode under the Session: the compiled graphs of the run, the Executed / Current / Pending
// marks of their nodes at a pause, recompiles for a new shape, and none of it in PyNative mode.
// SPDX-License-Identifier: MIT
#include "tests/session/session_test_support.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace gradstep;
using namespace gradstep::debug;
using namespace gradstep::debug::test;

namespace {

// Two steps on a batch of 2, then one on a batch of 4: the gradient function compiles twice.
const char* const kGraphScript =
    "import numpy as np\n"
    "import mindspore as ms\n"
    "from mindspore import Tensor, nn, ops\n"
    "\n"
    "ms.set_seed(1)\n"
    "net = nn.Dense(3, 2)\n"
    "loss_fn = nn.MSELoss()\n"
    "opt = nn.SGD(net.trainable_params(), learning_rate=0.1)\n"
    "def forward_fn(data, label):\n"
    "    out = net(data)\n"
    "    out = ops.tanh(out) * 2.0\n"
    "    return loss_fn(out, label)\n"
    "grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())\n"
    "x = Tensor(np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], np.float32))\n"
    "y = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))\n"
    "for i in range(2):\n"
    "    loss, grads = grad_fn(x, y)\n"
    "    opt(grads)\n"
    "x4 = Tensor(np.ones((4, 3), np.float32))\n"
    "y4 = Tensor(np.zeros((4, 2), np.float32))\n"
    "loss, grads = grad_fn(x4, y4)\n"
    "opt(grads)\n";

SessionOptions graphOptions()
{
    SessionOptions options;
    options.overrides.mode = run::ModeOverride::Graph;
    return options;
}

std::size_t countMarks(const ExecutedGraph& g, GraphNodeMark mark)
{
    return static_cast<std::size_t>(std::count(g.marks.begin(), g.marks.end(), mark));
}

const ExecutedGraph* graphOf(const SessionState& s, const RecordPtr& r)
{
    if (!r || !r->graphNode)
        return nullptr;
    for (const ExecutedGraph& g : s.graphs)
        if (g.compiled->id == r->graphNode->graph)
            return &g;
    return nullptr;
}

} // namespace

TEST_CASE("a pause inside a compiled graph marks its nodes executed, current and pending")
{
    ScriptSession s(kGraphScript, graphOptions());
    s->load();
    auto state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Paused);
    // Step until a few nodes of the compiled graph ran.
    int graphNodes = 0;
    for (int i = 0; i < 40 && graphNodes < 3; ++i) {
        if (state->node && state->node->graphNode && !state->node->graphNode->inside)
            ++graphNodes;
        if (graphNodes < 3)
            state = stepAndWait(*s);
    }
    REQUIRE(graphNodes == 3);
    CHECK(state->step == 1);
    REQUIRE(state->compiledGraphs.size() == 1);
    const CompiledGraph& compiled = *state->compiledGraphs[0];
    CHECK(compiled.id == 1);
    CHECK(compiled.function.find("forward_fn") != std::string::npos);
    CHECK(compiled.compiles == 1);
    CHECK(compiled.gradient);
    CHECK(compiled.step == 1);
    CHECK(compiled.milliseconds >= 0.0);
    REQUIRE(compiled.graph);

    const ExecutedGraph* g = graphOf(*state, state->node);
    REQUIRE(g != nullptr);
    REQUIRE(g->marks.size() == compiled.graph->nodes().size());
    CHECK(g->marks[state->node->graphNode->node] == GraphNodeMark::Current);
    CHECK(countMarks(*g, GraphNodeMark::Current) == 1);
    CHECK(countMarks(*g, GraphNodeMark::Executed) >= 2);
    CHECK(countMarks(*g, GraphNodeMark::Pending) >= 1);
    // Nodes run in id order: everything before the current node ran, nothing after it did.
    const std::uint32_t current = state->node->graphNode->node;
    for (std::uint32_t n = 0; n < g->marks.size(); ++n)
        if (n > current)
            CHECK(g->marks[n] == GraphNodeMark::Pending);

    // Stepping back shows the marks as they were at that node.
    REQUIRE(s->stepBack());
    auto back = s->state();
    REQUIRE(back->timeTravel);
    const ExecutedGraph* before = graphOf(*back, back->node);
    REQUIRE(before != nullptr);
    CHECK(countMarks(*before, GraphNodeMark::Executed) + 1
          == countMarks(*g, GraphNodeMark::Executed));
    CHECK(before->marks[current] == GraphNodeMark::Pending);

    // At the end of the step every node of the step's graphs ran.
    REQUIRE(s->runToEndOfStep());
    state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Paused);
    CHECK(state->step == 1);
    REQUIRE_FALSE(state->graphs.empty());
    for (const ExecutedGraph& done : state->graphs) {
        CHECK(countMarks(done, GraphNodeMark::Executed) == done.marks.size());
        CHECK(countMarks(done, GraphNodeMark::Current) == 0);
    }
    // Compiled backward nodes carry their "Gradients" scope once.
    bool sawBackward = false;
    for (const RecordPtr& r : state->records) {
        sawBackward = sawBackward || r->phase == Phase::Backward;
        CHECK(r->fullName.find("Gradients/Gradients") == std::string::npos);
        if (r->phase == Phase::Backward)
            CHECK(r->fullName.rfind("Gradients/", 0) == 0);
    }
    CHECK(sawBackward);
    s->cancel();
    waitStopped(*s);
}

TEST_CASE("a call with a new input shape recompiles and the state lists both compilations")
{
    ScriptSession s(kGraphScript, graphOptions());
    s->load(RunCommand::of(RunCommand::Kind::EndOfStep));
    auto state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Paused);
    const std::size_t firstCompiles = state->compiledGraphs.size();
    REQUIRE(firstCompiles >= 1);
    // Step 2 runs the same shapes: no new compilation of the gradient function.
    REQUIRE(s->runToEndOfStep());
    state = waitStopped(*s);
    CHECK(state->step == 2);
    CHECK(state->compiledGraphs.size() == firstCompiles);
    REQUIRE(s->runToEndOfStep());
    state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Paused);
    CHECK(state->step == 3);

    std::vector<std::shared_ptr<const CompiledGraph>> forward;
    for (const auto& c : state->compiledGraphs)
        if (c->function.find("forward_fn") != std::string::npos && c->gradient)
            forward.push_back(c);
    REQUIRE(forward.size() == 2);
    CHECK(forward[0]->compiles == 1);
    CHECK(forward[1]->compiles == 2);
    CHECK(forward[1]->step == 3);
    CHECK(forward[0]->signature != forward[1]->signature);
    CHECK(forward[1]->signature.find("4, 3") != std::string::npos);
    // Step 3 ran the recompiled graph, not the first one.
    bool ranSecond = false;
    for (const ExecutedGraph& g : state->graphs) {
        CHECK(g.compiled != forward[0]);
        ranSecond = ranSecond || g.compiled == forward[1];
    }
    CHECK(ranSecond);
    for (std::size_t i = 0; i < state->compiledGraphs.size(); ++i)
        CHECK(state->compiledGraphs[i]->id == i + 1);

    REQUIRE(s->continueRun());
    state = waitStopped(*s);
    CHECK(state->status == SessionStatus::Finished);
    CHECK(state->compiledGraphs.size() >= 2);
}

TEST_CASE("a PyNative run has no compiled graph in the state")
{
    SessionOptions options;
    options.overrides.mode = run::ModeOverride::PyNative;
    ScriptSession s(kGraphScript, options);
    s->load(RunCommand::of(RunCommand::Kind::EndOfStep));
    auto state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Paused);
    REQUIRE_FALSE(state->records.empty());
    CHECK(state->compiledGraphs.empty());
    CHECK(state->graphs.empty());
    for (const RecordPtr& r : state->records)
        CHECK_FALSE(r->graphNode.has_value());
    s->cancel();
    waitStopped(*s);
}

TEST_CASE("with recording off the live node still names its graph node")
{
    SessionOptions options = graphOptions();
    options.recording = Recording::Off;
    ScriptSession s(kGraphScript, options);
    s->load();
    auto state = waitStopped(*s);
    bool named = false;
    for (int i = 0; i < 40 && !named; ++i) {
        named = state->node && state->node->graphNode.has_value();
        if (!named)
            state = stepAndWait(*s);
    }
    CHECK(named);
    CHECK_FALSE(state->compiledGraphs.empty());
    s->cancel();
    waitStopped(*s);
}

TEST_CASE("a compiled graph's forward nodes are at the lines of the function they were compiled from")
{
    // Before: every node of the graph was at the call of the gradient function (line 17).
    SessionOptions options = graphOptions();
    options.breakpoints = {"op:Tanh", "11"};
    ScriptSession s(kGraphScript, options);
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    auto state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Paused);
    REQUIRE(state->node);
    REQUIRE(state->node->graphNode);
    CHECK(state->node->location.line == 11);
    bool sawDense = false;
    for (const RecordPtr& r : state->records)
        if (r->phase == Phase::Forward && r->op == "MatMul") {
            sawDense = true;
            CHECK(r->location.line == 10);
        }
    CHECK(sawDense);
    // The line breakpoint on line 11 stops at the graph's nodes of that line too (the script is
    // not running line 11, so no line event can stop there): after op:Tanh at the same node.
    CHECK(state->why.reason == PauseReason::Breakpoint);
    s->cancel();
    waitStopped(*s);
}
