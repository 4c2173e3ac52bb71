// `gradstep compare --what fd`: a Cell whose bprop is wrong is caught, the table and the JSON
// report name the worst element, and the exit status is 0 (both sides gave a step).
// SPDX-License-Identifier: MIT
#include "tests/app/compare_cli.h"

#include "io/json.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::test;

namespace {
// y = x * w with a bprop that forgets the factor w for x (dx = dout) and gets dw right.
const char* const kWrongBprop = "import numpy as np\n"
                                "import mindspore as ms\n"
                                "from mindspore import Tensor, nn, ops\n"
                                "class Scale(nn.Cell):\n"
                                "    def construct(self, x, w):\n"
                                "        return x * w\n"
                                "    def bprop(self, x, w, out, dout):\n"
                                "        return dout, (x * dout).sum(axis=0)\n"
                                "scale = Scale()\n"
                                "def loss_fn(x, w):\n"
                                "    return (scale(x, w) ** 2).sum()\n"
                                "x = Tensor(np.array([[1.0, 2.0], [3.0, -1.0]], np.float32))\n"
                                "w = Tensor(np.array([0.5, 4.0], np.float32))\n"
                                "gx, gw = ms.grad(loss_fn, grad_position=(0, 1))(x, w)\n";
} // namespace

TEST_CASE("gradstep compare --what fd names the worst element of a wrong custom bprop")
{
    ScratchDir dir;
    const auto script = dir.write("wrong_bprop.py", kWrongBprop);
    const auto report = dir.file("fd.json");
    const CommandResult c = compareCli(quoted(script) + " --what fd --quiet --report " + quoted(report));
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("A = analytic, B = finite differences (float64)"));
    CHECK_THAT(c.out, Catch::Contains("worst element"));
    CHECK_THAT(c.out, Catch::Contains("1 of 2 gradients disagree with float64 central differences"));
    const Json r = Json::parseFile(report.string());
    CHECK(r["what"].asString() == "fd");
    REQUIRE(r["diff"].size() == 2);
    const Json& input0 = r["diff"][0];
    CHECK(input0["name"].asString() == "input0");
    CHECK(input0["verdict"].asString() == "different");
    // dL/dx = 2 x w^2; the bprop gives 2 x w: the largest gap is at x[0, 1] (x = 2, w = 4): 16 vs 64.
    CHECK(input0["worst_element"].asString() == "[0, 1]");
    CHECK(input0["worst_a"].asNumber() == Approx(16.0));
    CHECK(input0["worst_b"].asNumber() == Approx(64.0).epsilon(1e-6));
    const Json& input1 = r["diff"][1];
    CHECK(input1["name"].asString() == "input1");
    CHECK(input1["verdict"].asString() != "different");
}
