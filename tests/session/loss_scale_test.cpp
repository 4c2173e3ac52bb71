// Mixed precision through the Session: each step's loss-scale decision kept in the step
// summaries (what the views chart), and the overflow watchpoint's pause with the float32 value.
// SPDX-License-Identifier: MIT
#include "tests/session/session_test_support.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace gradstep;
using namespace gradstep::debug;
using namespace gradstep::debug::test;

namespace {

/// A float16 Dense trained through TrainOneStepWithLossScaleCell from a scale of 2^24: the
/// scaled loss gradient overflows float16 where it enters the network (the backward of the
/// output Cast on line 6), until the halved scale fits.
const char* const kDynamicScale = "import numpy as np\n"                                      // 1
                                  "import mindspore as ms\n"                                  // 2
                                  "from mindspore import nn, ops\n"                           // 3
                                  "class Net(nn.Cell):\n"                                     // 4
                                  "    def construct(self, x, y):\n"                          // 5
                                  "        return self.loss(ops.cast(self.dense(x), ms.float32), y)\n"
                                  "net = Net()\n"                                             // 7
                                  "ms.set_seed(1)\n"                                          // 8
                                  "net.dense = nn.Dense(4, 2).to_float(ms.float16)\n"         // 9
                                  "net.loss = nn.MSELoss()\n"                                 // 10
                                  "opt = nn.SGD(net.dense.trainable_params(), 0.01)\n"        // 11
                                  "step = nn.TrainOneStepWithLossScaleCell(net, opt,\n"       // 12
                                  "    scale_sense=nn.DynamicLossScaleUpdateCell(2 ** 24, 2, 1000))\n"
                                  "x = ms.Tensor(np.ones((3, 4), np.float32))\n"              // 14
                                  "y = ms.Tensor(np.zeros((3, 2), np.float32))\n"             // 15
                                  "for _ in range(12):\n"                                     // 16
                                  "    step(x, y)\n";                                         // 17

} // namespace

TEST_CASE("the session keeps each step's loss scale, overflow and skipped update in the step summaries")
{
    ScriptSession s(kDynamicScale);
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    const auto state = waitStopped(*s);
    INFO((state->diagnostic ? state->diagnostic->format() : std::string()));
    REQUIRE(state->status == SessionStatus::Finished);
    REQUIRE(state->history.size() == 12);
    const StepSummary& first = state->history.front();
    REQUIRE(first.lossScale);
    CHECK(first.lossScale->lossScale == 16777216.0);
    CHECK(first.lossScale->nextLossScale == 8388608.0);
    CHECK(first.lossScale->overflow);
    CHECK(first.lossScale->updateSkipped);
    std::size_t overflows = 0;
    for (std::size_t i = 0; i < state->history.size(); ++i) {
        const StepSummary& summary = state->history[i];
        REQUIRE(summary.lossScale);
        overflows += summary.lossScale->overflow ? 1 : 0;
        if (i + 1 < state->history.size())
            CHECK(state->history[i + 1].lossScale->lossScale == summary.lossScale->nextLossScale);
    }
    // The scale halves until the scaled gradient fits float16, and then stays.
    CHECK(overflows > 0);
    CHECK(overflows < 12);
    CHECK_FALSE(state->history.back().lossScale->overflow);
    CHECK(state->history.back().lossScale->lossScale == 16777216.0 / (1 << overflows));
}

TEST_CASE("the overflow watchpoint pauses at the backward Cast with the float32 gradient it could not hold")
{
    SessionOptions options;
    options.watchpoints = {"overflow"};
    ScriptSession s(kDynamicScale, options);
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    const auto state = waitStopped(*s);
    REQUIRE(state->status == SessionStatus::Paused);
    CHECK(state->why.reason == PauseReason::Watchpoint);
    CHECK(state->why.condition == "overflow");
    REQUIRE(state->node);
    CHECK(state->node->op == "Cast");
    CHECK(state->node->phase == Phase::Backward);
    CHECK(state->node->location.line == 6);
    CHECK(state->node->allInputsFinite());
    REQUIRE(state->node->halfPrecision);
    const HalfPrecisionIssue& issue = *state->node->halfPrecision;
    CHECK(issue.kind == HalfPrecisionIssue::Kind::Overflow);
    CHECK(issue.dtype == DType::Float16);
    CHECK(issue.count == 6); // every element of the [3, 2] gradient
    CHECK(std::isinf(issue.halfValue));
    CHECK(std::isfinite(issue.float32Value));
    CHECK(std::abs(issue.float32Value) > 65504.0);
    REQUIRE(state->why.watchHits.size() == 1);
    CHECK(state->why.watchHits[0].kind == Watchpoint::Kind::HalfPrecisionOverflow);
    CHECK(state->why.message.find("Float16 overflow first produced by Cast") != std::string::npos);
    // The same node, found again in the recorded step.
    const RecordPtr first = s->findFirst("overflow");
    REQUIRE(first);
    CHECK(first->seq == state->node->seq);
}

namespace {

enum class Scaling { None, Cell, Functional };

/// The same float32 Dense trained by plain TrainOneStepCell, by TrainOneStepWithLossScaleCell
/// with a fixed scale of 1024, or by the functional loop of MindSpore's amp tutorial with a
/// DynamicLossScaler starting at 1024 (no overflow in float32 either way).
std::string denseSteps(Scaling scaling)
{
    std::string source = "import numpy as np\n"
                         "import mindspore as ms\n"
                         "from mindspore import amp, nn\n"
                         "ms.set_seed(3)\n"
                         "net = nn.WithLossCell(nn.Dense(4, 2), nn.MSELoss())\n"
                         "opt = nn.SGD(net.trainable_params(), 0.05)\n"
                         "x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) / 10)\n"
                         "y = ms.Tensor(np.ones((3, 2), np.float32))\n";
    switch (scaling) {
    case Scaling::None:
        return source + "step = nn.TrainOneStepCell(net, opt)\n"
                        "for _ in range(3):\n"
                        "    step(x, y)\n";
    case Scaling::Cell:
        return source + "step = nn.TrainOneStepWithLossScaleCell(net, opt, scale_sense=ms.Tensor(1024.0, ms.float32))\n"
                        "for _ in range(3):\n"
                        "    step(x, y)\n";
    case Scaling::Functional:
        return source + "scaler = amp.DynamicLossScaler(1024, 2, 50)\n"
                        "grad_fn = ms.value_and_grad(lambda a, b: scaler.scale(net(a, b)), None, opt.parameters)\n"
                        "for _ in range(3):\n"
                        "    loss, grads = grad_fn(x, y)\n"
                        "    loss = scaler.unscale(loss)\n"
                        "    finite = amp.all_finite(grads)\n"
                        "    if finite:\n"
                        "        opt(scaler.unscale(grads))\n"
                        "    scaler.adjust(finite)\n";
    }
    return source;
}

} // namespace

TEST_CASE("a loss-scaled step's summary holds the true gradients, not the scaled ones")
{
    std::vector<std::vector<double>> norms[3];
    for (int scaled = 0; scaled < 3; ++scaled) {
        ScriptSession s(denseSteps(static_cast<Scaling>(scaled)));
        s->load(RunCommand::of(RunCommand::Kind::Continue));
        const auto state = waitStopped(*s);
        INFO((state->diagnostic ? state->diagnostic->format() : std::string()));
        REQUIRE(state->status == SessionStatus::Finished);
        REQUIRE(state->history.size() == 3);
        for (const StepSummary& step : state->history) {
            REQUIRE(step.lossScale.has_value() == (scaled != 0));
            if (step.lossScale) {
                CHECK(step.lossScale->lossScale == 1024.0);
                CHECK_FALSE(step.lossScale->overflow);
                CHECK_FALSE(step.lossScale->updateSkipped);
            }
            std::vector<double> stepNorms;
            for (const ParameterSummary& p : step.parameters) {
                stepNorms.push_back(p.gradientNorm);
                CHECK(p.gradient.dtype == DType::Float32);
            }
            norms[scaled].push_back(stepNorms);
        }
    }
    for (int scaled = 1; scaled < 3; ++scaled) {
        INFO("scaling " << scaled);
        REQUIRE(norms[0].size() == norms[scaled].size());
        for (std::size_t step = 0; step < norms[0].size(); ++step) {
            REQUIRE(norms[0][step].size() == norms[scaled][step].size());
            REQUIRE_FALSE(norms[0][step].empty());
            for (std::size_t k = 0; k < norms[0][step].size(); ++k) {
                CHECK(norms[0][step][k] > 0.0);
                CHECK(norms[scaled][step][k] == Approx(norms[0][step][k]).epsilon(1e-5));
            }
        }
    }
}

TEST_CASE("the functional DynamicLossScaler's overflowing steps are reported as skipped, with the halved scale")
{
    const std::string source = "import numpy as np\n"
                               "import mindspore as ms\n"
                               "from mindspore import amp, nn\n"
                               "ms.set_seed(1)\n"
                               "dense = nn.Dense(4, 2).to_float(ms.float16)\n"
                               "loss_fn = nn.MSELoss()\n"
                               "opt = nn.SGD(dense.trainable_params(), 0.01)\n"
                               "scaler = amp.DynamicLossScaler(2 ** 24, 2, 1000)\n"
                               "def forward(a, b):\n"
                               "    return scaler.scale(loss_fn(dense(a).astype(ms.float32), b))\n"
                               "grad_fn = ms.value_and_grad(forward, None, opt.parameters)\n"
                               "x = ms.Tensor(np.ones((3, 4), np.float32))\n"
                               "y = ms.Tensor(np.zeros((3, 2), np.float32))\n"
                               "for _ in range(12):\n"
                               "    loss, grads = grad_fn(x, y)\n"
                               "    finite = amp.all_finite(grads)\n"
                               "    if finite:\n"
                               "        opt(scaler.unscale(grads))\n"
                               "    scaler.adjust(finite)\n";
    ScriptSession s(source);
    s->load(RunCommand::of(RunCommand::Kind::Continue));
    const auto state = waitStopped(*s);
    INFO((state->diagnostic ? state->diagnostic->format() : std::string()));
    REQUIRE(state->status == SessionStatus::Finished);
    REQUIRE(state->history.size() == 12);
    std::size_t overflows = 0;
    double expected = 16777216.0;
    for (const StepSummary& step : state->history) {
        REQUIRE(step.lossScale);
        CHECK(step.lossScale->lossScale == expected);
        CHECK(step.lossScale->updateSkipped == step.lossScale->overflow);
        if (step.lossScale->overflow) {
            ++overflows;
            CHECK(step.lossScale->nextLossScale == expected / 2);
            expected /= 2;
        }
    }
    CHECK(state->history.front().lossScale->overflow);
    CHECK(overflows > 0);
    CHECK(overflows < 12);
    CHECK_FALSE(state->history.back().lossScale->overflow);
}
