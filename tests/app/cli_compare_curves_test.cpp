// `gradstep compare --steps N`: two runs' curves step by step and the first step where they part,
// for a what-if switch, two scripts and a saved run (app/cli_compare.cpp, session/compare_curves.cpp).
// SPDX-License-Identifier: MIT
#include "tests/app/compare_cli.h"

#include "io/json.h"

#include <catch2/catch.hpp>

#include <thread>

using namespace gradstep;
using namespace gradstep::test;

namespace {

/// Linear regression trained by SGD at `lr`; with `failAt` > 0 it raises before that step.
std::string regression(const std::string& lr, int failAt = 0)
{
    return "import numpy as np\nimport mindspore as ms\nfrom mindspore import Tensor, nn\n"
           "ms.set_seed(0)\nrng = np.random.default_rng(0)\n"
           "x = Tensor(rng.uniform(-1, 1, (32, 3)).astype(np.float32))\n"
           "y = Tensor(rng.uniform(-1, 1, (32, 1)).astype(np.float32))\n"
           "net = nn.Dense(3, 1)\nloss_fn = nn.MSELoss()\n"
           "opt = nn.SGD(net.trainable_params(), learning_rate=" + lr + ")\n"
           "def forward(a, b):\n    return loss_fn(net(a), b)\n"
           "grad_fn = ms.value_and_grad(forward, None, net.trainable_params())\n"
           "for step in range(1, 9):\n"
           "    if step == " + std::to_string(failAt) + ":\n"
           "        raise RuntimeError(f'stopped on purpose before step {step}')\n"
           "    loss, grads = grad_fn(x, y)\n    opt(grads)\n";
}

const Json& stepOf(const Json& side, int step) { return side["steps"][static_cast<std::size_t>(step - 1)]; }

} // namespace

TEST_CASE("has_aux on vs off over 4 steps parts at step 1 in the gradients and at step 2 in the loss")
{
    ScratchDir dir;
    const auto report = dir.file("r.json");
    const CommandResult c = compareCli(sample("has_aux_pitfall.py") + " --what has-aux --steps 4 --quiet --report "
                                       + quoted(report));
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("first divergence: step 1, the gradient of"));
    const Json r = Json::parseFile(report.string());
    CHECK(r["steps"].asInt() == 4);
    REQUIRE(r["a"]["steps"].size() == 4);
    REQUIRE(r["b"]["steps"].size() == 4);
    const Json& d = r["first_divergence"];
    REQUIRE(d.isObject());
    CHECK(d["step"].asInt() == 1);
    CHECK(d["kind"].asString() == "gradient");
    CHECK(d["name"].isString());
    // The same loss at step 1 (the same weights), another one from step 2 (another update).
    CHECK(stepOf(r["a"], 1)["loss"].asNumber() == stepOf(r["b"], 1)["loss"].asNumber());
    CHECK(stepOf(r["a"], 2)["loss"].asNumber() != Approx(stepOf(r["b"], 2)["loss"].asNumber()).epsilon(1e-4));
    CHECK(stepOf(r["a"], 1)["lr"].asNumber() == Approx(0.05));
    const Json& bias = stepOf(r["a"], 1)["params"][1];
    CHECK(bias["name"].asString() == "bias");
    CHECK(bias["grad_norm"].asNumber() > 0.0);
    CHECK(bias["value_norm"].asNumber() > 0.0);
    // The first step's table is still there, from the same runs.
    CHECK(r["diff"][1]["verdict"].asString() == "different");
}

TEST_CASE("PyNative against graph mode on LeNet5 never parts over 50 steps")
{
    ScratchDir dir;
    const auto report = dir.file("r.json");
    const CommandResult c = compareCli(sample("lenet5_digits.py") + " --what mode --steps 50 --quiet --report "
                                       + quoted(report));
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("the runs never part over 50 step(s)"));
    const Json r = Json::parseFile(report.string());
    REQUIRE(r["a"]["steps"].size() == 50);
    REQUIRE(r["b"]["steps"].size() == 50);
    CHECK(r["first_divergence"].isNull());
    // The loss moved over the 50 steps: the two curves agree on a run that trains.
    CHECK(stepOf(r["a"], 50)["loss"].asNumber() != stepOf(r["a"], 1)["loss"].asNumber());
    CHECK(stepOf(r["a"], 50)["params"].size() == stepOf(r["b"], 50)["params"].size());
}

TEST_CASE("two scripts that differ only in the learning rate part at step 2, in the loss")
{
    ScratchDir dir;
    const auto a = dir.write("lr_a.py", regression("0.1"));
    const auto b = dir.write("lr_b.py", regression("0.05"));
    const auto report = dir.file("r.json");
    const CommandResult c = compareCli(quoted(a) + " " + quoted(b) + " --steps 5 --report " + quoted(report));
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("compare scripts: A = lr_a.py, B = lr_b.py"));
    CHECK_THAT(c.out, Catch::Contains("first divergence: step 2, the loss"));
    const Json r = Json::parseFile(report.string());
    CHECK(r["what"].asString() == "scripts");
    CHECK(r["first_divergence"]["step"].asInt() == 2);
    CHECK(r["first_divergence"]["kind"].asString() == "loss");
    CHECK(r["first_divergence"]["name"].isNull());
    CHECK(stepOf(r["a"], 1)["lr"].asNumber() == Approx(0.1));
    CHECK(stepOf(r["b"], 1)["lr"].asNumber() == Approx(0.05));
    for (const Json& d : r["diff"].asArray())
        CHECK(d["verdict"].asString() == "equal");
}

TEST_CASE("a script compared with its own saved run never parts")
{
    ScratchDir dir;
    const auto script = dir.write("fit.py", regression("0.1"));
    const auto saved = dir.file("saved.json");
    const CommandResult run = runGradstep("run " + quoted(script) + " --steps 6 --seed 0 --quiet --report " + quoted(saved));
    INFO(run.out << run.err);
    REQUIRE(run.status == 0);
    const auto report = dir.file("r.json");
    const CommandResult c = compareCli(quoted(script) + " --against " + quoted(saved) + " --quiet --report " + quoted(report));
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("the runs never part over 6 step(s)"));
    const Json r = Json::parseFile(report.string());
    CHECK(r["what"].asString() == "saved");
    CHECK(r["steps"].asInt() == 6); // the saved run's steps by default
    CHECK(r["first_divergence"].isNull());
    CHECK(r["b"]["steps"].size() == 6);
    CHECK(r["b"]["nodes"].isNull()); // a saved run keeps no counts
    for (const Json& d : r["diff"].asArray())
        CHECK(d["verdict"].asString() == "equal");

    // The same saved run against a script with another learning rate parts at step 2.
    const auto other = dir.write("fit_other.py", regression("0.3"));
    const CommandResult o = compareCli(quoted(other) + " --against " + quoted(saved) + " --quiet");
    INFO(o.out);
    CHECK(o.status == 0);
    CHECK_THAT(o.out, Catch::Contains("first divergence: step 2, the loss"));
}

TEST_CASE("a side that raises at step 5 reports its 4 steps and the other side all of its own")
{
    ScratchDir dir;
    const auto a = dir.write("fails.py", regression("0.1", 5));
    const auto b = dir.write("runs.py", regression("0.1"));
    const auto report = dir.file("r.json");
    const CommandResult c = compareCli(quoted(a) + " " + quoted(b) + " --steps 8 --report " + quoted(report));
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("A (fails.py) failed after step 4: RuntimeError: stopped on purpose before step 5"));
    CHECK_THAT(c.out, Catch::Contains("A completed 4 step(s), B 8"));
    CHECK_THAT(c.out, Catch::Contains("the runs never part over 4 step(s)"));
    const Json r = Json::parseFile(report.string());
    CHECK(r["a"]["steps"].size() == 4);
    CHECK(r["b"]["steps"].size() == 8);
    CHECK_THAT(r["a"]["later_error"].asString(), Catch::Contains("stopped on purpose"));
    CHECK(r["first_divergence"].isNull());
}

TEST_CASE("over several steps both sides run at the same time, each side's output kept apart")
{
    ScratchDir dir;
    const auto a = dir.write("a.py", regression("0.1") + "print('side a says hello')\n");
    const auto b = dir.write("b.py", regression("0.1") + "print('side b says hello')\n");
    const CommandResult c = compareCli(quoted(a) + " " + quoted(b) + " --steps 3");
    INFO(c.out);
    REQUIRE(c.status == 0);
    // Stopped after step 3, neither script reached its print; the banner says how they ran (in
    // this process, one after the other, on a machine with one core).
    if (std::thread::hardware_concurrency() >= 2)
        CHECK_THAT(c.out, Catch::Contains("at the same time, 3 steps each"));
    CHECK(c.out.find("says hello") == std::string::npos);
    const auto a2 = dir.write("a2.py", "print('side a says hello')\n" + regression("0.1"));
    const CommandResult c2 = compareCli(quoted(a2) + " " + quoted(b) + " --steps 2");
    INFO(c2.out);
    if (std::thread::hardware_concurrency() >= 2)
        CHECK_THAT(c2.out, Catch::Contains("--- A (a2.py) printed ---\nside a says hello\n"));
    else
        CHECK_THAT(c2.out, Catch::Contains("side a says hello\n"));
}

TEST_CASE("gradstep compare refuses contradictory comparisons with status 2")
{
    ScratchDir dir;
    const auto a = dir.write("a.py", regression("0.1"));
    const CommandResult both = compareCli(quoted(a) + " " + quoted(a) + " --what mode");
    CHECK(both.status == 2);
    CHECK_THAT(both.out, Catch::Contains("leave out --what"));
    CHECK(compareCli(quoted(a) + " --what mode --against x.json").status == 2);
    CHECK(compareCli(quoted(a) + " --what mode --steps 0").status == 2);
    CHECK(compareCli(quoted(a) + " --what mode --tolerance -1").status == 2);
    const CommandResult missing = compareCli(quoted(a) + " --against " + quoted(dir.file("none.json")));
    CHECK(missing.status == 1);
    CHECK_THAT(missing.out, Catch::Contains("none.json"));
    const auto notReport = dir.write("not.json", "{\"what\": 1}");
    const CommandResult wrong = compareCli(quoted(a) + " --against " + quoted(notReport));
    CHECK(wrong.status == 1);
    CHECK_THAT(wrong.out, Catch::Contains("not a gradstep run report"));
}

TEST_CASE("a loss-scaled run and the same run unscaled never part: compare divides the gradients by the scale")
{
    ScratchDir dir;
    const std::string common = "import numpy as np\nimport mindspore as ms\nfrom mindspore import nn\nms.set_seed(3)\n"
                               "net = nn.WithLossCell(nn.Dense(4, 2), nn.MSELoss())\n"
                               "opt = nn.SGD(net.trainable_params(), 0.05)\n";
    const std::string loop = "x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) / 10)\n"
                             "y = ms.Tensor(np.ones((3, 2), np.float32))\n"
                             "for _ in range(4):\n    step(x, y)\n";
    const auto plain = dir.write("plain.py", common + "step = nn.TrainOneStepCell(net, opt)\n" + loop);
    const auto scaled = dir.write("scaled.py", common
        + "step = nn.TrainOneStepWithLossScaleCell(net, opt, scale_sense=ms.Tensor(1024.0, ms.float32))\n" + loop);
    const auto report = dir.file("r.json");
    const CommandResult c = compareCli(quoted(plain) + " " + quoted(scaled) + " --steps 4 --report " + quoted(report));
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("the runs never part over 4 step(s)"));
    const Json r = Json::parseFile(report.string());
    CHECK(r["first_divergence"].isNull());
    for (const Json& d : r["diff"].asArray())
        CHECK(d["verdict"].asString() != "different");
    for (int step = 1; step <= 4; ++step)
        CHECK(stepOf(r["b"], step)["params"][0]["grad_norm"].asNumber()
              == Approx(stepOf(r["a"], step)["params"][0]["grad_norm"].asNumber()).epsilon(1e-5));
}
