// `gradstep debug` run as a process: the --json report parsed and checked, the text report,
// usage errors (exit 2) and script errors (exit 1). SPDX-License-Identifier: MIT
#include "io/json.h"
#include "tests/app/cli_support.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace gradstep;
using namespace gradstep::test;

namespace {

CommandResult debug(const std::vector<std::string>& args)
{
    std::string line = "debug";
    for (const std::string& a : args)
        line += " " + shellQuote(a);
    return runGradstep(line);
}

/// Dense(3, 2), MSE, SGD, three steps: 12 is the first line of forward_fn, 18 the update.
const char* const kTrainScript = "import numpy as np\n"
                                 "import mindspore as ms\n"
                                 "from mindspore import Tensor, nn\n"
                                 "\n"
                                 "ms.set_seed(1)\n"
                                 "net = nn.Dense(3, 2)\n"
                                 "loss_fn = nn.MSELoss()\n"
                                 "opt = nn.SGD(net.trainable_params(), learning_rate=0.1)\n"
                                 "x = Tensor(np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], np.float32))\n"
                                 "y = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))\n"
                                 "def forward_fn(data, label):\n"
                                 "    out = net(data)\n"
                                 "    return loss_fn(out, label)\n"
                                 "grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())\n"
                                 "losses = []\n"
                                 "for i in range(3):\n"
                                 "    loss, grads = grad_fn(x, y)\n"
                                 "    opt(grads)\n"
                                 "    losses.append(float(loss))\n";

const char* const kLogZero = "import numpy as np\n"
                             "import mindspore as ms\n"
                             "from mindspore import Tensor, Parameter, ops\n"
                             "w = Parameter(Tensor(np.array([1.0, 0.0, 2.0], np.float32)), name='w')\n"
                             "def f(x):\n"
                             "    y = x * w\n"
                             "    z = ops.log(y)\n"                                    // 7
                             "    return (z * 0.5).sum()\n"
                             "x = Tensor(np.array([1.0, 1.0, 1.0], np.float32))\n"
                             "print('running')\n"
                             "loss, g = ms.value_and_grad(f, None, [w])(x)\n";

} // namespace

TEST_CASE("gradstep debug --watch nan --json names the root-cause node, its line and its values")
{
    ScratchDir dir;
    const auto script = dir.write("main.py", kLogZero);
    const CommandResult p = debug({script.string(), "--watch", "nan", "--json"});
    INFO(p.err);
    REQUIRE(p.status == 0);
    const Json j = Json::parse(p.out);
    CHECK(j["reason"].asString() == "nan");
    CHECK(j["condition"].asString() == "nan");
    CHECK(j["step"].asInt() == 1);
    CHECK(j["node"]["op"].asString() == "Log");
    CHECK(j["node"]["phase"].asString() == "forward");
    CHECK(j["node"].contains("scope"));
    CHECK(j["location"]["line"].asInt() == 7);
    CHECK(j["location"]["col"].asInt() > 0);
    CHECK(j["location"]["file"].asString().find("main.py") != std::string::npos);
    CHECK(j["location"]["source"].asString() == "    z = ops.log(y)");
    CHECK(j["outputs"][0]["inf_count"].asInt() == 1);
    CHECK(j["inputs"][0]["inf_count"].asInt() == 0);
    CHECK(j["nan_root_cause"]["kind"].asString() == "produced_by_node");
    CHECK(p.err.find("running") != std::string::npos); // the script's prints go to stderr with --json
}

TEST_CASE("gradstep debug --break op:TYPE prints the node, the source line with a caret and the values")
{
    ScratchDir dir;
    const auto script = dir.write("main.py", kTrainScript);
    CommandResult p = debug({script.string(), "--break", "op:MatMul", "--quiet"});
    INFO(p.err);
    REQUIRE(p.status == 0);
    CHECK(p.out.find("stopped: breakpoint (op:MatMul) in step 1") != std::string::npos);
    CHECK(p.out.find("main.py:12:") != std::string::npos);
    CHECK(p.out.find("12 |     out = net(data)") != std::string::npos);
    CHECK(p.out.find("^") != std::string::npos);
    CHECK(p.out.find("output 0") != std::string::npos);

    p = debug({script.string(), "--break", "main.py:18", "--json", "--quiet"});
    REQUIRE(p.status == 0);
    const Json j = Json::parse(p.out);
    CHECK(j["reason"].asString() == "breakpoint");
    CHECK(j["condition"].asString() == "main.py:18");
    CHECK(j["node"].isNull()); // stopped before line 18 runs: none of its nodes ran yet
    CHECK(j["location"]["line"].asInt() == 18);
    CHECK(j["location"]["source"].asString() == "    opt(grads)");
}

TEST_CASE("gradstep debug --break op:Custom stops on an ops.Custom node named by its function")
{
    ScratchDir dir;
    const auto script = dir.write("main.py",
                                  "import numpy as np\n"
                                  "import mindspore as ms\n"
                                  "from mindspore import Tensor, ops\n"
                                  "def cube(x):\n"
                                  "    return x ** 3\n"
                                  "op = ops.Custom(cube, out_shape=lambda s: s, out_dtype=lambda t: t,\n"
                                  "                bprop=lambda x, out, dout: (3 * x * x * dout,))\n"
                                  "def f(x):\n"
                                  "    return op(x * 2).sum()\n"
                                  "g = ms.grad(f)(Tensor(np.array([1.0, -0.5], np.float32)))\n");
    const CommandResult p = debug({script.string(), "--break", "op:Custom", "--json", "--quiet"});
    INFO(p.err);
    REQUIRE(p.status == 0);
    const Json j = Json::parse(p.out);
    CHECK(j["node"]["op"].asString() == "Custom");
    CHECK(j["node"]["label"].asString() == "custom cube");
    CHECK_THAT(j["node"]["attrs"].asString(), Catch::Contains("func_name=") && Catch::Contains("cube")
                                                  && Catch::Contains("func_type="));
    CHECK(j["location"]["line"].asInt() == 9);
    REQUIRE(j["inputs"].size() == 1);
    CHECK(j["inputs"][0]["max"].asNumber() == Approx(2.0));
    REQUIRE(j["outputs"].size() == 1);
    CHECK(j["outputs"][0]["max"].asNumber() == Approx(8.0));
    CHECK(j["outputs"][0]["min"].asNumber() == Approx(-1.0));
}

TEST_CASE("gradstep debug reports the end when nothing is hit, also after --steps N")
{
    ScratchDir dir;
    const auto script = dir.write("main.py", kTrainScript);
    CommandResult p = debug({script.string(), "--watch", "nan", "--json", "--quiet"});
    REQUIRE(p.status == 0);
    Json j = Json::parse(p.out);
    CHECK(j["reason"].asString() == "end");
    CHECK(j["steps_finished"].asInt() == 3);
    CHECK(j["node"].isNull());

    p = debug({script.string(), "--steps", "2", "--json", "--quiet", "--seed", "3"});
    REQUIRE(p.status == 0);
    j = Json::parse(p.out);
    CHECK(j["reason"].asString() == "end");
    CHECK(j["condition"].asString() == "steps=2");
    CHECK(j["steps_finished"].asInt() == 2);
}

TEST_CASE("gradstep debug exits 2 on bad options and 1 on a script error")
{
    ScratchDir dir;
    const auto script = dir.write("main.py", kTrainScript);
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{script.string(), "--break", "op:"},
                                               {script.string(), "--watch", "sometimes"},
                                               {script.string(), "--steps", "zero"},
                                               {script.string(), "--api", "3.0"},
                                               {script.string(), "--frobnicate"},
                                               {}}) {
        const CommandResult p = debug(args);
        CHECK(p.status == 2);
        CHECK(p.err.find("gradstep debug") != std::string::npos);
    }
    const auto bad = dir.write("bad.py", "import mindspore\nx = 1\nundefined_name + x\n");
    const CommandResult p = debug({bad.string()});
    CHECK(p.status == 1);
    CHECK(p.err.find("NameError") != std::string::npos);
    CHECK(p.err.find("bad.py:3:") != std::string::npos);
}
