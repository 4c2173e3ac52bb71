// `gradstep run` as a user runs it: --steps stops after the N-th update, the table and the JSON
// report hold the real gradients, --seed and --api change what they should, bad usage is 2.
// SPDX-License-Identifier: MIT
#include "tests/app/cli_support.h"

#include "io/json.h"

#include <catch2/catch.hpp>

#include <cmath>

using gradstep::Json;
using namespace gradstep::test;

namespace {

/// A script without set_seed: its weights come from --seed alone.
const char* kTrain = R"PY(
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn
net = nn.Dense(3, 2)
opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
loss_fn = nn.MSELoss()
x = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 10)
y = Tensor(np.ones((4, 2), np.float32))
step = ms.value_and_grad(lambda a, b: loss_fn(net(a), b), None, net.trainable_params())
for i in range(10):
    loss, grads = step(x, y)
    opt(grads)
    print("after step", i + 1)
)PY";

Json runReport(const ScratchDir& dir, const std::string& options)
{
    const auto script = dir.write("train.py", kTrain);
    const auto report = dir.file("report.json");
    const CommandResult r = runGradstep("run " + shellQuote(script.string()) + " " + options + " --report "
                                        + shellQuote(report.string()));
    INFO(r.err);
    REQUIRE(r.status == 0);
    return Json::parseFile(report.string());
}

} // namespace

TEST_CASE("run --steps stops after that step's optimizer update and reports each step")
{
    ScratchDir dir;
    const auto script = dir.write("train.py", kTrain);
    const auto report = dir.file("report.json");
    const CommandResult r = runGradstep("run " + shellQuote(script.string()) + " --steps 3 --seed 7 --report "
                                        + shellQuote(report.string()));
    INFO(r.err);
    REQUIRE(r.status == 0);
    // The update of step 3 ran, the print after it did not.
    CHECK(r.out.find("after step 2\n") != std::string::npos);
    CHECK(r.out.find("\nafter step 3\n") == std::string::npos);
    CHECK(r.out.find("stopped after step 3 (--steps)") != std::string::npos);
    CHECK(r.out.find("|d weight|") != std::string::npos);

    const Json json = Json::parseFile(report.string());
    CHECK(json["api"].asString() == "2.x");
    CHECK(json["mode"].asString() == "pynative");
    CHECK(json["script"].asString() == script.string());
    const auto& steps = json["steps"].asArray();
    REQUIRE(steps.size() == 3);
    double previousLoss = INFINITY;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        CHECK(steps[i]["step"].asInt() == static_cast<std::int64_t>(i + 1));
        const double loss = steps[i]["loss"].asNumber();
        CHECK(loss < previousLoss); // SGD on a convex loss goes down
        previousLoss = loss;
        const auto& params = steps[i]["params"].asArray();
        REQUIRE(params.size() == 2);
        CHECK(params[0]["name"].asString() == "weight");
        CHECK(params[1]["name"].asString() == "bias");
        CHECK(params[0]["shape"].asArray().size() == 2);
        // bias has two elements: first5 holds them all, so norm and sum follow from it
        const auto& first = params[1]["grad_first5"].asArray();
        REQUIRE(first.size() == 2);
        const double a = first[0].asNumber(), b = first[1].asNumber();
        CHECK(params[1]["grad_norm"].asNumber() == Approx(std::sqrt(a * a + b * b)).epsilon(1e-9));
        CHECK(params[1]["grad_sum"].asNumber() == Approx(a + b).epsilon(1e-9));
        CHECK(params[0]["grad_first5"].asArray().size() == 5);
        CHECK(params[0]["value_norm"].asNumber() > 0.0);
    }
}

TEST_CASE("run --seed makes runs repeat bit for bit and a different seed changes the weights")
{
    ScratchDir dir;
    const Json a = runReport(dir, "--steps 2 --seed 11 --quiet");
    const Json b = runReport(dir, "--steps 2 --seed 11 --quiet");
    const Json c = runReport(dir, "--steps 2 --seed 12 --quiet");
    CHECK(a["steps"].dump() == b["steps"].dump());
    CHECK(a["steps"].asArray()[0]["loss"].asNumber() != c["steps"].asArray()[0]["loss"].asNumber());
}

TEST_CASE("run --api 1.10 hides mindspore.value_and_grad as MindSpore 1.10 did")
{
    ScratchDir dir;
    const auto script = dir.write("train.py", kTrain);
    const CommandResult r = runGradstep("run " + shellQuote(script.string()) + " --api 1.10");
    CHECK(r.status == 1);
    CHECK(r.err.find("train.py:10:") != std::string::npos);
    CHECK(r.err.find("AttributeError: module 'mindspore' has no attribute 'value_and_grad'") != std::string::npos);
    CHECK(r.out.find("no training steps") != std::string::npos);
}

TEST_CASE("a grad-only step has no loss in the report and the table shows a dash")
{
    ScratchDir dir;
    const auto script = dir.write("g.py", "import mindspore as ms\nfrom mindspore import Tensor\n"
                                          "g = ms.grad(lambda x: (x * x).sum())(Tensor([3.0, 4.0]))\n");
    const auto report = dir.file("r.json");
    const CommandResult r = runGradstep("run " + shellQuote(script.string()) + " --report " + shellQuote(report.string()));
    REQUIRE(r.status == 0);
    const Json json = Json::parseFile(report.string());
    REQUIRE(json["steps"].asArray().size() == 1);
    CHECK(json["steps"].asArray()[0]["loss"].isNull());
    CHECK(json["steps"].asArray()[0]["input_grad_norms"].asArray()[0].asNumber() == Approx(10.0));
    CHECK(r.out.find("   1     -") != std::string::npos);
}

TEST_CASE("run refuses bad usage with status 2 and documents every option in --help")
{
    CHECK(runGradstep("run").status == 2);
    CHECK(runGradstep("run x.py --steps 0").status == 2);
    CHECK(runGradstep("run x.py --steps many").status == 2);
    CHECK(runGradstep("run x.py --api 3.0").status == 2);
    CHECK(runGradstep("run x.py --report").status == 2);
    CHECK(runGradstep("run x.py --bogus").status == 2);
    const CommandResult help = runGradstep("run --help");
    CHECK(help.status == 0);
    for (const char* option : {"--steps", "--seed", "--api", "--report", "--quiet", "--timeout"})
        CHECK(help.out.find(option) != std::string::npos);
}

TEST_CASE("a missing script is a clear error, not a crash")
{
    const CommandResult r = runGradstep("run /nonexistent/model.py");
    CHECK(r.status == 1);
    CHECK(r.err.find("/nonexistent/model.py") != std::string::npos);
}

TEST_CASE("run --mode graph compiles the script's Cells and reports the same losses as PyNative")
{
    ScratchDir dir;
    const Json eager = runReport(dir, "--steps 3 --seed 5 --quiet --mode pynative");
    const Json graph = runReport(dir, "--steps 3 --seed 5 --quiet --mode graph");
    CHECK(eager["mode"].asString() == "pynative");
    CHECK(graph["mode"].asString() == "graph");
    const auto& a = eager["steps"].asArray();
    const auto& b = graph["steps"].asArray();
    REQUIRE(a.size() == 3);
    REQUIRE(b.size() == 3);
    for (std::size_t i = 0; i < a.size(); ++i) {
        CHECK(b[i]["loss"].asNumber() == Approx(a[i]["loss"].asNumber()).epsilon(1e-5));
        CHECK(b[i]["params"].asArray()[0]["grad_norm"].asNumber()
              == Approx(a[i]["params"].asArray()[0]["grad_norm"].asNumber()).epsilon(1e-5));
    }
    CHECK(runGradstep("run x.py --mode eager").status == 2);
}
