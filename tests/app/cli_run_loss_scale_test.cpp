// The loss scale and overflow of each step in `gradstep run`'s table and JSON report, on the
// mixed-precision sample (LeNet5 at O2, dynamic loss scaling from 2^24) and a fixed-scale step;
// absent for a script that scales no loss. SPDX-License-Identifier: MIT
#include "io/json.h"
#include "tests/app/cli_support.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace gradstep;
using namespace gradstep::test;

namespace {

Json readReport(const std::filesystem::path& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return Json::parse(text.str());
}

/// A fixed scale of 1024 that never overflows: every step updates, and the gradient figures are
/// those of the unscaled loss.
constexpr const char* kFixedScale = R"PY(import numpy as np, mindspore as ms
from mindspore import nn
ms.set_seed(1)
net = nn.Dense(4, 2)
opt = nn.SGD(net.trainable_params(), 0.1)
step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), opt,
                                        scale_sense=nn.FixedLossScaleUpdateCell(1024))
x = ms.Tensor(np.ones((3, 4), np.float32))
y = ms.Tensor(np.zeros((3, 2), np.float32))
for _ in range(2):
    step(x, y)
)PY";

/// The same network without loss scaling.
constexpr const char* kUnscaled = R"PY(import numpy as np, mindspore as ms
from mindspore import nn
ms.set_seed(1)
net = nn.Dense(4, 2)
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
x = ms.Tensor(np.ones((3, 4), np.float32))
y = ms.Tensor(np.zeros((3, 2), np.float32))
for _ in range(2):
    step(x, y)
)PY";

} // namespace

TEST_CASE("run reports the mixed-precision sample's overflowing first steps, the scale halving and the loss falling")
{
    ScratchDir dir;
    const std::string report = dir.file("report.json").string();
    const CommandResult r = runGradstep("run " + shellQuote(sourcePath("samples/mixed_precision.py").string())
                                        + " --report " + shellQuote(report));
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("loss scale") != std::string::npos);
    CHECK(r.out.find("yes, skipped") != std::string::npos);

    const Json j = readReport(report);
    const Json& steps = j["steps"];
    REQUIRE(steps.size() > 60);
    // MindSpore's start, 2^24, overflows float16 at once: the step skips its update and the next
    // step runs at half the scale.
    CHECK(steps[0]["loss_scale"].asNumber() == 16777216.0);
    CHECK(steps[0]["overflow"].asBool());
    CHECK_FALSE(steps[0]["updated"].asBool());
    CHECK(steps[1]["loss_scale"].asNumber() == 8388608.0);
    std::size_t overflows = 0, halvings = 0, doublings = 0, firstGood = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const Json& s = steps[i];
        REQUIRE(s.contains("loss_scale"));
        overflows += s["overflow"].asBool() ? 1 : 0;
        CHECK(s["updated"].asBool() == !s["overflow"].asBool());
        if (firstGood == 0 && !s["overflow"].asBool())
            firstGood = i;
        if (i + 1 < steps.size()) {
            const double ratio = steps[i + 1]["loss_scale"].asNumber() / s["loss_scale"].asNumber();
            if (s["overflow"].asBool())
                CHECK(ratio == 0.5);
            halvings += ratio == 0.5 ? 1 : 0;
            doublings += ratio == 2.0 ? 1 : 0;
        }
    }
    CHECK(overflows >= 4);
    CHECK(halvings == overflows - (steps[steps.size() - 1]["overflow"].asBool() ? 1 : 0));
    CHECK(doublings >= 1); // scale_window good steps in a row grow it again
    // The loss falls once the scale fits: the last ten steps' mean against the first good steps'.
    double early = 0.0, late = 0.0;
    for (std::size_t i = 0; i < 10; ++i) {
        early += steps[firstGood + i]["loss"].asNumber() / 10.0;
        late += steps[steps.size() - 1 - i]["loss"].asNumber() / 10.0;
    }
    CHECK(early > 2.2);
    CHECK(late < 0.75 * early);
}

TEST_CASE("run's report holds a fixed loss scale and unscaled gradients, and no loss scale for unscaled steps")
{
    ScratchDir dir;
    dir.write("fixed.py", kFixedScale);
    dir.write("plain.py", kUnscaled);
    const std::string fixedReport = dir.file("fixed.json").string();
    const std::string plainReport = dir.file("plain.json").string();
    CommandResult r = runGradstep("run " + shellQuote(dir.file("fixed.py").string()) + " --report "
                                  + shellQuote(fixedReport));
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("loss scale  overflow") != std::string::npos);
    r = runGradstep("run " + shellQuote(dir.file("plain.py").string()) + " --report " + shellQuote(plainReport));
    REQUIRE(r.status == 0);
    CHECK(r.out.find("loss scale") == std::string::npos);

    const Json fixed = readReport(fixedReport);
    const Json plain = readReport(plainReport);
    REQUIRE(fixed["steps"].size() == 2);
    REQUIRE(plain["steps"].size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
        const Json& f = fixed["steps"][i];
        const Json& p = plain["steps"][i];
        CHECK(f["loss_scale"].asNumber() == 1024.0);
        CHECK_FALSE(f["overflow"].asBool());
        CHECK(f["updated"].asBool());
        CHECK_FALSE(p.contains("loss_scale"));
        CHECK_FALSE(p.contains("overflow"));
        // Same weights, same steps: the same loss and, unscaled, the same gradients.
        CHECK(f["loss"].asNumber() == Approx(p["loss"].asNumber()).epsilon(1e-6));
        for (std::size_t k = 0; k < 2; ++k)
            CHECK(f["params"][k]["grad_norm"].asNumber()
                  == Approx(p["params"][k]["grad_norm"].asNumber()).epsilon(1e-5));
    }
}
