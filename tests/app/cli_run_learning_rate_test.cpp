// The learning rate each step's optimizer update used, in `gradstep run`'s table and JSON report:
// a schedule (PolynomialDecayLR, through the Python optimizers) and a fixed rate (a core SGD).
// SPDX-License-Identifier: MIT
#include "tests/app/cli_support.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

using namespace gradstep::test;

namespace {

constexpr const char* kScheduled = R"PY(import numpy as np, mindspore as ms
from mindspore import nn
net = nn.Dense(4, 2)
lr = nn.PolynomialDecayLR(0.1, 0.01, 4, power=1.0)
train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), lr, 0.9))
x = ms.Tensor(np.ones((3, 4), np.float32))
y = ms.Tensor(np.zeros((3, 2), np.float32))
for _ in range(6):
    train(x, y)
)PY";

} // namespace

TEST_CASE("run shows the learning rate a schedule gave each step, and the report holds it")
{
    ScratchDir dir;
    dir.write("train.py", kScheduled);
    const std::string report = dir.file("report.json").string();
    const CommandResult r = runGradstep("run " + shellQuote(dir.file("train.py").string()) + " --report "
                                        + shellQuote(report));
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    std::istringstream table(r.out);
    std::string header;
    std::getline(table, header);
    CHECK(header.find("loss      lr") != std::string::npos);
    // (0.1 - 0.01) * (1 - step / 4) + 0.01 for steps 0..3, then the end rate.
    for (const char* rate : {" 0.1 ", " 0.0775 ", " 0.055 ", " 0.0325 ", " 0.01 "})
        CHECK(r.out.find(rate) != std::string::npos);
    std::ifstream in(report);
    const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(json.find("\"learning_rate\": 0.0775000005960") != std::string::npos); // float32 0.0775
}

TEST_CASE("run leaves the learning-rate column out when no optimizer ran")
{
    ScratchDir dir;
    dir.write("grad.py", "import numpy as np, mindspore as ms\n"
                         "ms.grad(lambda x: (x * x).sum())(ms.Tensor(np.ones(3, np.float32)))\n");
    const CommandResult r = runGradstep("run " + shellQuote(dir.file("grad.py").string()));
    REQUIRE(r.status == 0);
    CHECK(r.out.find(" lr ") == std::string::npos);
}
