// Watchpoints and the NaN root cause through the Session, on scripts with injected faults.
// SPDX-License-Identifier: MIT
#include "tests/session/session_test_support.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::debug;
using namespace gradstep::debug::test;

namespace {

std::shared_ptr<const SessionState> runWatched(ScriptSession& s)
{
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    return waitStopped(*s);
}

SessionOptions watching(const std::string& list)
{
    SessionOptions options;
    options.watchpoints = {list};
    return options;
}

const char* const kLogZero = "import numpy as np\n"                                    // 1
                             "import mindspore as ms\n"                                // 2
                             "from mindspore import Tensor, Parameter, ops\n"          // 3
                             "w = Parameter(Tensor(np.array([1.0, 0.0, 2.0], np.float32)), name='w')\n"
                             "def f(x):\n"                                             // 5
                             "    y = x * w\n"                                         // 6
                             "    z = ops.log(y)\n"                                    // 7
                             "    return (z * 0.5).sum()\n"                            // 8
                             "x = Tensor(np.array([1.0, 1.0, 1.0], np.float32))\n"     // 9
                             "loss, g = ms.value_and_grad(f, None, [w])(x)\n";         // 10

} // namespace

TEST_CASE("the nan watchpoint pauses with the view on the Log node that made -inf from finite inputs")
{
    ScriptSession s(kLogZero, watching("nan"));
    auto state = runWatched(s);
    REQUIRE(state->status == SessionStatus::Paused);
    CHECK(state->why.reason == PauseReason::Nan);
    CHECK(state->why.condition == "nan");
    REQUIRE(state->why.nanRootCause);
    CHECK(state->why.nanRootCause->kind == NanRootCause::Kind::ProducedByNode);
    REQUIRE(state->node);
    CHECK(state->node->op == "Log");
    CHECK(state->node->phase == Phase::Forward);
    CHECK(state->node->location.line == 7);
    CHECK(state->node->allInputsFinite());
    CHECK(state->why.message.find("Log") != std::string::npos);
    // The backwards search agrees.
    RecordPtr first = s->findFirst("nan");
    REQUIRE(first);
    CHECK(first->seq == state->node->seq);
}

TEST_CASE("a NaN that only appears in the backward pass is traced to the backward node")
{
    // sqrt(0) = 0 is finite; its gradient 1 / (2 sqrt(0)) is not.
    const char* script = "import numpy as np\n"
                         "import mindspore as ms\n"
                         "from mindspore import Tensor, Parameter, ops\n"
                         "w = Parameter(Tensor(np.array([0.0, 4.0], np.float32)), name='w')\n"
                         "def f():\n"
                         "    r = ops.sqrt(w)\n"                                   // 6
                         "    return (r * 3.0).sum()\n"
                         "loss, g = ms.value_and_grad(f, None, [w])()\n";
    ScriptSession s(script, watching("nan"));
    auto state = runWatched(s);
    REQUIRE(state->status == SessionStatus::Paused);
    CHECK(state->why.reason == PauseReason::Nan);
    REQUIRE(state->node);
    CHECK(state->node->phase == Phase::Backward);
    CHECK(state->node->op == "Sqrt");
    CHECK(state->node->location.line == 6);
    CHECK(state->node->anyOutputNonFinite());
}

TEST_CASE("the exploding watchpoint pauses at a gradient above its threshold")
{
    const char* script = "import numpy as np\n"
                         "import mindspore as ms\n"
                         "from mindspore import Tensor, Parameter, ops\n"
                         "w = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name='w')\n"
                         "def f(x):\n"
                         "    return (ops.exp(w * x)).sum()\n"
                         "x = Tensor(np.array([10.0, 10.0], np.float32))\n"
                         "loss, g = ms.value_and_grad(f, None, [w])(x)\n";
    ScriptSession s(script, watching("exploding=1e3"));
    auto state = runWatched(s);
    REQUIRE(state->status == SessionStatus::Paused);
    CHECK(state->why.reason == PauseReason::Watchpoint);
    CHECK(state->why.condition.rfind("exploding", 0) == 0);
    REQUIRE_FALSE(state->why.watchHits.empty());
    CHECK(state->why.watchHits[0].kind == Watchpoint::Kind::GradientExploding);
    CHECK(state->why.watchHits[0].value > 1e3);
    CHECK(state->node->phase == Phase::Backward);
}

TEST_CASE("the vanishing watchpoint pauses at a gradient below its threshold")
{
    const char* script = "import numpy as np\n"
                         "import mindspore as ms\n"
                         "from mindspore import Tensor, Parameter, ops\n"
                         "w = Parameter(Tensor(np.array([1.0, 1.0], np.float32)), name='w')\n"
                         "def f(x):\n"
                         "    return ops.sigmoid(w * x).sum()\n"
                         "x = Tensor(np.array([60.0, 70.0], np.float32))\n"
                         "loss, g = ms.value_and_grad(f, None, [w])(x)\n";
    ScriptSession s(script, watching("vanishing=1e-7"));
    auto state = runWatched(s);
    REQUIRE(state->status == SessionStatus::Paused);
    CHECK(state->why.reason == PauseReason::Watchpoint);
    REQUIRE_FALSE(state->why.watchHits.empty());
    CHECK(state->why.watchHits[0].kind == Watchpoint::Kind::GradientVanishing);
    CHECK(state->why.watchHits[0].value < 1e-7);
}

TEST_CASE("a clean script with watchpoints runs to the end")
{
    ScriptSession s(kTrainScript, watching("nan,exploding=1e6"));
    auto state = runWatched(s);
    CHECK(state->status == SessionStatus::Finished);
    CHECK(state->why.reason == PauseReason::End);
    CHECK(state->history.size() == 3);
}

TEST_CASE("after the nan watchpoint's stop the rest of the step, nodes with several NaN outputs "
          "included, runs on to the end")
{
    // Dense's BiasAdd gradient has two outputs, both NaN here: two NaN hits at one node.
    ScriptSession s("import numpy as np, mindspore as ms\n"
                    "from mindspore import nn, ops, Tensor\n"
                    "net = nn.Dense(3, 2)\n"
                    "def f(x):\n"
                    "    return ops.log(net(x) * 0.0).sum()\n"
                    "ms.value_and_grad(f, None, net.trainable_params())(Tensor(np.ones((2, 3), np.float32)))\n",
                    watching("nan"));
    auto state = runWatched(s);
    REQUIRE(state->status == SessionStatus::Paused);
    CHECK(state->why.reason == PauseReason::Nan);
    s->continueRun();
    state = waitStopped(*s);
    CHECK(state->status == SessionStatus::Finished);
    CHECK(state->why.reason == PauseReason::End);
}
