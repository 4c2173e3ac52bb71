// compare --what fd (core/session/compare_fd.cpp): a custom op's wrong bprop is caught and named
// by its worst element, a correct one passes, large tensors are sampled, and a step that cannot
// be evaluated again says why. SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include "session/compare.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace gradstep;
using namespace gradstep::session;
using namespace gradstep::python::test;

namespace {

Comparison compareFd(const std::filesystem::path& script)
{
    ensureHost();
    CompareOptions options;
    options.timeout = std::chrono::seconds(60);
    options.warmUp = false;
    return compare(script, CompareWhat::FiniteDifferences, options);
}

/// A Dense layer followed by a pyfunc Custom op y = x^3 whose bprop scales by `scale` (3 is right).
std::string customOpScript(const char* scale)
{
    return std::string("import numpy as np\n"
                       "import mindspore as ms\n"
                       "from mindspore import Tensor, nn, ops\n"
                       "def cube(x):\n"
                       "    return x ** 3\n"
                       "def cube_bprop(x, out, dout):\n"
                       "    return (")
           + scale
           + " * x * x * dout,)\n"
             "op = ops.Custom(cube, out_shape=lambda s: s, out_dtype=lambda t: t, bprop=cube_bprop)\n"
             "class Net(nn.Cell):\n"
             "    def __init__(self):\n"
             "        super().__init__()\n"
             "        self.dense = nn.Dense(3, 2)\n"
             "    def construct(self, x):\n"
             "        return op(self.dense(x)).sum()\n"
             "ms.set_seed(1)\n"
             "net = Net()\n"
             "x = Tensor(np.array([[0.5, -1.0, 0.25], [1.0, 0.5, -0.5]], np.float32))\n"
             "grad_fn = ms.value_and_grad(net, None, net.trainable_params())\n"
             "loss, grads = grad_fn(x)\n";
}

const ParamDiff& diffNamed(const Comparison& c, const std::string& name)
{
    for (const ParamDiff& d : c.diff)
        if (d.name == name)
            return d;
    FAIL("no gradient named " << name);
    return c.diff.front();
}

} // namespace

TEST_CASE("fd: a custom op's correct bprop agrees with float64 central differences")
{
    TempDir dir;
    const Comparison c = compareFd(dir.write("right.py", customOpScript("3.0")));
    INFO(c.a.error.value_or("") << c.b.error.value_or(""));
    REQUIRE(c.ok());
    CHECK(c.a.label == "analytic");
    CHECK(c.b.label == "finite differences (float64)");
    REQUIRE(c.diff.size() == 2);
    for (const ParamDiff& d : c.diff) {
        INFO(d.name << " rel " << d.relDiff.value_or(-1));
        CHECK((d.verdict == Verdict::Equal || d.verdict == Verdict::Close));
        CHECK(d.worstElement);
    }
    // Dense(3, 2): every element of the 2x3 weight is checked.
    REQUIRE(c.b.params.size() == 2);
    CHECK(c.b.params[0].indices.size() == 6);
    CHECK_THAT(explainComparison(c), Catch::StartsWith("The analytic gradients match float64 central differences"));
}

TEST_CASE("fd: a custom op's wrong bprop is caught and its worst element named")
{
    TempDir dir;
    const Comparison c = compareFd(dir.write("wrong.py", customOpScript("2.0")));
    INFO(c.a.error.value_or("") << c.b.error.value_or(""));
    REQUIRE(c.ok());
    const ParamDiff& weight = diffNamed(c, "dense.weight");
    CHECK(weight.verdict == Verdict::Different);
    // The bprop gives 2/3 of the true gradient everywhere: a relative difference of 1/3.
    REQUIRE(weight.relDiff);
    CHECK(*weight.relDiff == Approx(1.0 / 3.0).epsilon(1e-3));
    REQUIRE(weight.worstElement);
    REQUIRE(weight.worstA);
    REQUIRE(weight.worstB);
    CHECK(*weight.worstA == Approx(*weight.worstB * 2.0 / 3.0).epsilon(1e-3));
    CHECK(diffNamed(c, "dense.bias").verdict == Verdict::Different);
    const std::string why = explainComparison(c);
    CHECK_THAT(why, Catch::Contains("2 of 2 gradients disagree with float64 central differences"));
    CHECK_THAT(why, Catch::Contains("the worst element is dense."));
    CHECK_THAT(formatComparison(c), Catch::Contains("worst element"));
}

TEST_CASE("fd: a large input gradient is checked at sampled elements, the largest among them")
{
    TempDir dir;
    const Comparison c = compareFd(dir.write("input.py",
                                             "import numpy as np\n"
                                             "import mindspore as ms\n"
                                             "from mindspore import Tensor, ops\n"
                                             "def f(x):\n"
                                             "    return (ops.sin(x) * 2.0).sum()\n"
                                             "x = Tensor(np.linspace(-1.5, 1.5, 60).reshape(6, 10).astype(np.float32))\n"
                                             "g = ms.grad(f)(x)\n"));
    INFO(c.a.error.value_or("") << c.b.error.value_or(""));
    REQUIRE(c.ok());
    REQUIRE(c.b.params.size() == 1);
    const ParamGrad& fd = c.b.params[0];
    CHECK(fd.name == "input0");
    CHECK(fd.shape == std::vector<std::int64_t>{6, 10});
    CHECK(fd.indices.size() > 16);
    CHECK(fd.indices.size() <= 24);
    // 2 cos(x) is largest where |x| is smallest: the middle elements 29 and 30 are among the samples.
    CHECK(std::find(fd.indices.begin(), fd.indices.end(), 29) != fd.indices.end());
    CHECK(std::find(fd.indices.begin(), fd.indices.end(), 30) != fd.indices.end());
    for (std::size_t k = 0; k < fd.indices.size(); ++k) {
        const double x = -1.5 + 3.0 * static_cast<double>(fd.indices[k]) / 59.0;
        CHECK(fd.values[k] == Approx(2.0 * std::cos(static_cast<double>(static_cast<float>(x)))).epsilon(1e-6));
    }
    CHECK(c.diff.at(0).verdict != Verdict::Different);
}

TEST_CASE("fd: a TrainOneStepCell step cannot be evaluated again, and B says so")
{
    TempDir dir;
    const Comparison c = compareFd(dir.write("train.py",
                                             "import numpy as np\n"
                                             "import mindspore as ms\n"
                                             "from mindspore import Tensor, nn\n"
                                             "net = nn.WithLossCell(nn.Dense(3, 1), nn.MSELoss())\n"
                                             "step = nn.TrainOneStepCell(net, nn.SGD(net.trainable_params(), 0.1))\n"
                                             "step(Tensor(np.ones((2, 3), np.float32)), Tensor(np.zeros((2, 1), np.float32)))\n"));
    CHECK_FALSE(c.a.error);
    REQUIRE(c.b.error);
    CHECK_THAT(*c.b.error, Catch::Contains("TrainOneStepCell"));
}

TEST_CASE("fd: a backward hook that rescales a gradient is caught, with has_aux")
{
    TempDir dir;
    const std::string body = "import numpy as np\n"
                             "import mindspore as ms\n"
                             "from mindspore import Tensor, nn\n"
                             "def double_grad(cell, grad_input, grad_output):\n"
                             "    return (grad_input[0] * 2,)\n"
                             "net = nn.Dense(3, 2)\n"
                             "act = nn.Tanh()\n"
                             "HOOK\n"
                             "def loss_fn(x):\n"
                             "    return (act(net(x)) ** 2).sum(), net(x)\n"
                             "x = Tensor(np.array([[0.5, -1.0, 0.25]], np.float32))\n"
                             "loss, grads = ms.value_and_grad(loss_fn, None, net.trainable_params(), has_aux=True)(x)\n";
    const auto with = [&](const std::string& hook) {
        std::string text = body;
        text.replace(text.find("HOOK"), 4, hook);
        return text;
    };
    const Comparison hooked = compareFd(dir.write("hooked.py", with("act.register_backward_hook(double_grad)")));
    const Comparison plain = compareFd(dir.write("plain.py", with("pass")));
    INFO(hooked.a.error.value_or("") << hooked.b.error.value_or("") << plain.b.error.value_or(""));
    REQUIRE(hooked.ok());
    REQUIRE(plain.ok());
    REQUIRE(hooked.diff.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
        CHECK(hooked.diff[i].verdict == Verdict::Different);
        CHECK(plain.diff[i].verdict == Verdict::Equal);
        // The differences do not see the hook: both scripts give the same ones.
        CHECK(*hooked.diff[i].normB == Approx(*plain.diff[i].normB));
    }
    CHECK_THAT(explainComparison(hooked), Catch::Contains("2 of 2 gradients disagree"));
}
