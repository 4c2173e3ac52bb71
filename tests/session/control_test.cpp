// Session control on a tiny training script: step into, over and out, run to the end of a step,
// N steps, continue, pause from another thread, cancel, restart. SPDX-License-Identifier: MIT
#include "tests/session/session_test_support.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <thread>

using namespace gradstep;
using namespace gradstep::debug;
using namespace gradstep::debug::test;

namespace {

int lineOf(const RecordPtr& r) { return r ? r->location.line : -1; }

} // namespace

TEST_CASE("step into visits the forward ops, then the backward ops, then the update of step 1")
{
    ScriptSession s(kTrainScript);
    s->load();
    auto state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Paused);
    REQUIRE(state->node);
    CHECK(state->why.reason == PauseReason::Command);
    CHECK(state->step == 1);
    CHECK(state->node->phase == Phase::Forward);

    std::vector<Phase> phases{state->node->phase};
    std::vector<std::uint64_t> seqs{state->node->seq};
    while (true) {
        state = stepAndWait(*s);
        REQUIRE(state->status == SessionStatus::Paused);
        if (state->step != 1)
            break;
        phases.push_back(state->node->phase);
        seqs.push_back(state->node->seq);
        CHECK(state->records.size() == phases.size());
        CHECK(state->records.back() == state->node);
        for (const TensorRecord& out : state->node->outputs) // filled at the pause
            CHECK((out.stats.hasHistogram || !out.snapshot.defined()));
        CHECK_FALSE(state->stack.empty());
    }
    // Forward, backward and update each appear, in that order, without going back.
    CHECK(std::is_sorted(phases.begin(), phases.end()));
    CHECK(std::count(phases.begin(), phases.end(), Phase::Forward) >= 2);
    CHECK(std::count(phases.begin(), phases.end(), Phase::Backward) >= 2);
    CHECK(std::count(phases.begin(), phases.end(), Phase::Update) >= 1);
    for (std::size_t i = 1; i < seqs.size(); ++i)
        CHECK(seqs[i] == seqs[i - 1] + 1);
    // The first node of step 2 is a forward op; step 1 is in the history with its loss.
    CHECK(state->node->phase == Phase::Forward);
    REQUIRE(state->history.size() == 1);
    CHECK(std::isfinite(state->history[0].loss));
    CHECK(state->history[0].parameters.size() == 2);
    s->cancel();
    CHECK(waitStopped(*s)->status == SessionStatus::Cancelled);
}

TEST_CASE("at a pause the user's stack and variables, the gradients and the loss are in the state")
{
    ScriptSession s(kTrainScript);
    s->load(RunCommand::of(RunCommand::Kind::EndOfStep));
    auto state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Paused);
    CHECK(state->why.reason == PauseReason::Command);
    CHECK(state->node->phase == Phase::Update);
    REQUIRE(state->stack.size() == 1);
    CHECK(state->stack[0].frame.function == "<module>");
    CHECK(state->stack[0].frame.span.line == 18);
    bool sawI = false;
    for (const run::Variable& v : state->stack[0].locals)
        sawI = sawI || (v.name == "i" && v.value == "0");
    CHECK(sawI);
    REQUIRE(state->gradients.size() == 2);
    CHECK(state->gradients[0].gradient.defined());
    CHECK(state->gradients[0].stats.count == 6);
    CHECK(std::isfinite(state->loss));
    REQUIRE(state->history.size() == 1);
    CHECK(state->history[0].loss == state->loss);
    CHECK(state->history[0].parameters[0].updated);
}

TEST_CASE("step over goes to the next line of the same function, and over a gradient call to the update")
{
    SessionOptions options;
    options.breakpoints = {"main.py:12"};
    ScriptSession s(kTrainScript, options);
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    auto state = waitStopped(*s);
    REQUIRE(state->why.reason == PauseReason::Breakpoint);
    REQUIRE(state->line); // before line 12 runs
    CHECK(state->line->line == 12);
    CHECK(state->userDepth == 2);
    REQUIRE(s->removeBreakpoint(1));

    REQUIRE(s->stepOver());
    state = waitStopped(*s);
    CHECK(state->why.reason == PauseReason::Command);
    CHECK(lineOf(state->node) == 13);
    CHECK(state->node->phase == Phase::Forward);
    CHECK(state->userDepth == 2);

    // Into the backward pass: the script is now at line 17, one frame up.
    REQUIRE(s->addBreakpoint("phase:backward") > 0);
    REQUIRE(s->continueRun());
    state = waitStopped(*s);
    REQUIRE(state->why.reason == PauseReason::Breakpoint);
    CHECK(state->node->phase == Phase::Backward);
    CHECK(state->userDepth == 1);
    REQUIRE(s->stepOver());
    state = waitStopped(*s);
    CHECK(state->node->phase == Phase::Update);
    CHECK(lineOf(state->node) == 18);
}

TEST_CASE("step out finishes the function, then the phase")
{
    SessionOptions options;
    options.breakpoints = {"main.py:12"};
    ScriptSession s(kTrainScript, options);
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    auto state = waitStopped(*s);
    REQUIRE(state->line);
    REQUIRE(state->line->line == 12);
    s->setBreakpointEnabled(1, false);

    REQUIRE(s->stepOut()); // forward_fn returns: the next node is the backward pass at depth 1
    state = waitStopped(*s);
    CHECK(state->node->phase == Phase::Backward);
    CHECK(state->userDepth == 1);
    REQUIRE(s->stepOut()); // the backward phase ends
    state = waitStopped(*s);
    CHECK(state->node->phase == Phase::Update);
    REQUIRE(s->stepOut()); // the update ends: step 2 begins
    state = waitStopped(*s);
    CHECK(state->node->phase == Phase::Forward);
    CHECK(state->step == 2);
}

TEST_CASE("run to the end of the step and run N steps stop after the optimizer update")
{
    ScriptSession s(kTrainScript);
    s->load();
    auto state = waitStopped(*s);
    REQUIRE(s->runToEndOfStep());
    state = waitStopped(*s);
    CHECK(state->step == 1);
    CHECK(state->history.size() == 1);
    REQUIRE(s->runSteps(2));
    state = waitStopped(*s);
    CHECK(state->status == SessionStatus::Paused);
    CHECK(state->step == 3);
    CHECK(state->history.size() == 3);
    REQUIRE(s->continueRun());
    state = waitStopped(*s);
    CHECK(state->status == SessionStatus::Finished);
    CHECK(state->why.reason == PauseReason::End);
    CHECK(state->history.size() == 3);
    CHECK_FALSE(s->stepInto()); // not paused: nothing happens
}

TEST_CASE("breakpoints on an op type, a name glob and a line pause there")
{
    SECTION("op type")
    {
        SessionOptions options;
        options.breakpoints = {"op:MatMul"};
        ScriptSession s(kTrainScript, options);
        s->load(RunCommand::of(RunCommand::Kind::Continue));
        auto state = waitStopped(*s);
        REQUIRE(state->why.reason == PauseReason::Breakpoint);
        CHECK(state->node->op == "MatMul");
        CHECK(state->why.condition == "op:MatMul");
        REQUIRE(state->why.breakpoint);
        // Every MatMul hits, the backward ones too, until step 2's forward MatMul.
        for (int hits = 0; state->step == 1 && hits < 10; ++hits) {
            REQUIRE(s->continueRun());
            state = waitStopped(*s);
            REQUIRE(state->why.reason == PauseReason::Breakpoint);
            CHECK(state->node->op == "MatMul");
        }
        CHECK(state->step == 2);
        CHECK(state->node->phase == Phase::Forward);
    }
    SECTION("name glob")
    {
        SessionOptions options;
        options.breakpoints = {"name:Gradients/*"};
        ScriptSession s(kTrainScript, options);
        s->load(RunCommand::of(RunCommand::Kind::Continue));
        auto state = waitStopped(*s);
        REQUIRE(state->why.reason == PauseReason::Breakpoint);
        CHECK(state->node->phase == Phase::Backward);
        CHECK(state->node->fullName.rfind("Gradients/", 0) == 0);
    }
    SECTION("line")
    {
        SessionOptions options;
        options.breakpoints = {"13"};
        ScriptSession s(kTrainScript, options);
        s->load(RunCommand::of(RunCommand::Kind::Continue));
        auto state = waitStopped(*s);
        REQUIRE(state->why.reason == PauseReason::Breakpoint);
        REQUIRE(state->line); // before line 13 runs: the last node is line 12's
        CHECK(state->line->line == 13);
        CHECK(lineOf(state->node) == 12);
        REQUIRE(s->stepInto()); // line 13's first op
        state = waitStopped(*s);
        CHECK(!state->line);
        CHECK(lineOf(state->node) == 13);
        CHECK(state->node->phase == Phase::Forward);
    }
}

TEST_CASE("a pause from another thread stops a long loop between nodes")
{
    const std::string script = std::string(kTrainScript) + "for j in range(1000000):\n"
                                                           "    grad_fn(x, y)\n";
    ScriptSession s(script);
    std::atomic<int> calls{0};
    s->setListener([&](const SessionState&) { ++calls; });
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    REQUIRE(s->status() == SessionStatus::Running);
    s->pause();
    auto state = waitStopped(*s);
    CHECK(state->status == SessionStatus::Paused);
    CHECK(state->why.reason == PauseReason::Pause);
    CHECK(state->node);
    // The listener runs just after the state is published.
    for (int i = 0; i < 1000 && calls == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(calls >= 1);
    s->cancel();
    state = waitStopped(*s);
    CHECK(state->status == SessionStatus::Cancelled);
}

TEST_CASE("a script error ends the session as failed with the diagnostic")
{
    ScriptSession s("import mindspore\nx = 1\nundefined_name + x\n");
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    auto state = waitStopped(*s);
    CHECK(state->status == SessionStatus::Failed);
    CHECK(state->why.reason == PauseReason::Error);
    REQUIRE(state->diagnostic);
    CHECK(state->diagnostic->type == "NameError");
    CHECK(state->diagnostic->span.line == 3);
}

TEST_CASE("restart re-runs the script with the same seed and gives bit-identical losses")
{
    SessionOptions options;
    options.overrides.seed = 11;
    const std::string script = std::string(kTrainScript).replace(std::string(kTrainScript).find("ms.set_seed(1)"),
                                                                 14, "pass          ");
    ScriptSession s(script, options);
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    auto first = waitStopped(*s);
    REQUIRE(first->status == SessionStatus::Finished);
    REQUIRE(first->history.size() == 3);

    // Restart from a pause in the middle of step 2 as well.
    s->restart(RunCommand::of(RunCommand::Kind::Steps, 1));
    auto middle = waitStopped(*s);
    REQUIRE(middle->status == SessionStatus::Paused);
    CHECK(middle->history.size() == 1);
    s->restart(RunCommand::of(RunCommand::Kind::Continue));
    auto second = waitStopped(*s);
    REQUIRE(second->status == SessionStatus::Finished);
    REQUIRE(second->history.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(first->history[i].loss == second->history[i].loss);
        CHECK(first->history[i].parameters[0].gradientNorm == second->history[i].parameters[0].gradientNorm);
    }
    CHECK(first->history[2].loss < first->history[0].loss);
}

TEST_CASE("with recording off the session still steps, breaks on ops and counts steps")
{
    SessionOptions options;
    options.recording = Recording::Off;
    options.breakpoints = {"op:MatMul"};
    ScriptSession s(kTrainScript, options);
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    auto state = waitStopped(*s);
    REQUIRE(state->why.reason == PauseReason::Breakpoint);
    CHECK(state->node->op == "MatMul");
    CHECK(state->node->location.line == 12);
    CHECK(state->node->outputs.empty()); // nothing recorded
    CHECK(state->records.empty());
    REQUIRE(s->removeBreakpoint(1));
    REQUIRE(s->stepInto());
    state = waitStopped(*s);
    CHECK(state->node->op != "MatMul");
    REQUIRE(s->continueRun());
    state = waitStopped(*s);
    CHECK(state->status == SessionStatus::Finished);
    REQUIRE(state->history.size() == 3);
    CHECK(std::isfinite(state->history[2].loss));
    CHECK(std::isfinite(state->history[2].parameters[0].gradientNorm));
}

TEST_CASE("an optimizer written in Python runs as the step's update phase and reports its learning rate")
{
    ScriptSession s(R"PY(import numpy as np, mindspore as ms
from mindspore import nn
net = nn.Dense(4, 2)
opt = nn.Adagrad(net.trainable_params(), learning_rate=nn.ExponentialDecayLR(0.1, 0.5, 1))
train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)
x = ms.Tensor(np.ones((3, 4), np.float32))
y = ms.Tensor(np.zeros((3, 2), np.float32))
for _ in range(3):
    train(x, y)
)PY");
    s->load();
    REQUIRE(waitStopped(*s)->status == SessionStatus::Paused);
    s->continueRun();
    const auto state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Finished);
    REQUIRE(state->history.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK(state->history[i].updateNodes > 0); // Adagrad's ops are update nodes, not forward ones
        CHECK(state->history[i].learningRate == Approx(0.1 * std::pow(0.5, double(i))));
        for (const ParameterSummary& p : state->history[i].parameters)
            CHECK(p.updated);
    }
}

TEST_CASE("a line breakpoint stops on any executed line, before it runs, once per arrival")
{
    SessionOptions options;
    options.breakpoints = {"4", "5"};
    ScriptSession s("import numpy as np, mindspore as ms\n"         // 1
                    "x = ms.Tensor(np.ones(3, np.float32))\n"       // 2
                    "y = ms.grad(lambda t: (t * t).sum())(x)\n"     // 3
                    "print('no op on this line')\n"                 // 4
                    "z = x * 2.0 + 1.0\n",                          // 5
                    options);
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    auto state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Paused);
    CHECK(state->why.reason == PauseReason::Breakpoint);
    REQUIRE(state->line);
    CHECK(state->line->line == 4);
    CHECK_THAT(state->why.message, Catch::Contains("breakpoint 1: line") && Catch::Contains(":4 reached, before it runs"));
    REQUIRE(!state->stack.empty());
    CHECK(state->stack.back().frame.span.line == 4);
    s->continueRun(); // line 5: before its ops run, and its two ops do not stop again
    state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Paused);
    REQUIRE(state->line);
    CHECK(state->line->line == 5);
    CHECK(state->node->location.line != 5); // nothing of line 5 ran yet
    s->continueRun();
    state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Finished);
    CHECK_THAT(state->why.message, !Catch::Contains("never stopped"));
}

TEST_CASE("a line breakpoint in a loop stops at each iteration and step over from it runs the line")
{
    SessionOptions options;
    options.breakpoints = {"4"};
    ScriptSession s("import numpy as np, mindspore as ms\n"   // 1
                    "x = ms.Tensor(np.ones(3, np.float32))\n" // 2
                    "for i in range(3):\n"                    // 3
                    "    x = x * 2.0\n"                       // 4
                    "print(float(x.sum()))\n",                // 5
                    options);
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    for (int i = 0; i < 3; ++i) {
        auto state = waitStopped(*s);
        REQUIRE(state->status == SessionStatus::Paused);
        REQUIRE(state->line);
        CHECK(state->line->line == 4);
        const auto hits = s->breakpoints();
        REQUIRE(hits.size() == 1);
        CHECK(hits[0].hitCount == i + 1);
        if (i == 2) {
            // Step over runs line 4 (its Mul) and stops at the next node of another line: the
            // ReduceSum of line 5.
            s->resume(RunCommand::of(RunCommand::Kind::StepOver));
            state = waitStopped(*s);
            REQUIRE(state->status == SessionStatus::Paused);
            CHECK(!state->line);
            REQUIRE(state->node);
            CHECK(state->node->location.line == 5);
        }
        s->continueRun();
    }
    auto state = waitStopped(*s);
    CHECK(state->status == SessionStatus::Finished);
}

TEST_CASE("line breakpoints that cannot stop are unverified: no code on the line, or the line never ran")
{
    SessionOptions options;
    options.breakpoints = {"2", "5", "9"};
    ScriptSession s("import numpy as np, mindspore as ms\n" // 1
                    "# a comment\n"                         // 2
                    "def never():\n"                        // 3
                    "    print('not called')\n"             // 4
                    "    return 1\n"                        // 5
                    "x = ms.Tensor(np.ones(3, np.float32))\n" // 6
                    "y = x * 2.0\n",                        // 7
                    options);
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    auto state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Finished);
    const std::vector<Breakpoint> points = s->breakpoints();
    REQUIRE(points.size() == 3);
    CHECK(points[0].unverified == "no code on line 2");
    CHECK(points[1].unverified == "line 5 never ran");
    CHECK(points[2].unverified == "no code on line 9");
    CHECK_THAT(state->why.message, Catch::Contains("breakpoint 1 (2) never stopped: no code on line 2"));
    CHECK_THAT(state->why.message, Catch::Contains("breakpoint 2 (5) never stopped: line 5 never ran"));
    // Known as soon as it is added, before any run.
    const int id = s->addBreakpoint("1000");
    for (const Breakpoint& bp : s->breakpoints())
        if (bp.id == id)
            CHECK(bp.unverified == "no code on line 1000");
}

TEST_CASE("a script that installs its own trace function keeps it, and line breakpoints fall back to ops")
{
    SessionOptions options;
    options.breakpoints = {"6", "7"};
    ScriptSession s("import sys, numpy as np, mindspore as ms\n"               // 1
                    "calls = []\n"                                              // 2
                    "def tracer(frame, event, arg):\n"                          // 3
                    "    calls.append(event)\n"                                 // 4
                    "sys.settrace(tracer)\n"                                    // 5
                    "x = ms.Tensor(np.ones(3, np.float32)) * 2.0\n"             // 6
                    "print('events', len(calls) > 0, sys.gettrace() is tracer)\n", // 7
                    options);
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    auto state = waitStopped(*s);
    // Line 6 runs an op: it stops there (at the op, the script's trace being in place).
    REQUIRE(state->status == SessionStatus::Paused);
    CHECK(state->node->location.line == 6);
    s->continueRun();
    state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Finished);
    CHECK_THAT(state->why.message, Catch::Contains("breakpoint 2 (7) never stopped: the script replaced gradstep's line tracing"));
}

// A compiled step (@ms.jit around value_and_grad and the optimizer) reported its gradient call
// only after the whole graph ran, so at a pause in its update nodes the Gradients table was
// empty although the backward nodes had run; the report now comes as soon as the graph has
// computed the gradients, as in PyNative.
TEST_CASE("paused in a compiled step's update, the step's gradients and loss are in the state")
{
    const std::string script = std::string(kTrainScript).substr(0, std::string(kTrainScript).find("losses = []"))
                               + "@ms.jit\n"
                                 "def step(data, label):\n"
                                 "    loss, grads = grad_fn(data, label)\n"
                                 "    opt(grads)\n"
                                 "    return loss\n"
                                 "for i in range(2):\n"
                                 "    step(x, y)\n";
    SessionOptions options;
    options.breakpoints = {"phase:update"};
    ScriptSession s(script, options);
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    auto state = waitStopped(*s);
    INFO((state->diagnostic ? state->diagnostic->format() : std::string()));
    REQUIRE(state->status == SessionStatus::Paused);
    REQUIRE(state->node);
    CHECK(state->node->phase == Phase::Update);
    CHECK_FALSE(state->graphs.empty()); // the node is a compiled graph's
    REQUIRE(state->gradients.size() == 2);
    for (const ParameterGradient& g : state->gradients)
        CHECK(g.gradient.defined());
    CHECK(std::isfinite(state->loss));
    const double loss = state->loss;
    const double norm = state->gradients[0].stats.l2Norm;
    REQUIRE(s->removeBreakpoint(1));
    REQUIRE(s->continueRun());
    state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Finished);
    REQUIRE(state->history.size() == 2);
    CHECK(state->history[0].loss == loss);
    CHECK(state->history[0].parameters[0].gradientNorm == norm);
}
