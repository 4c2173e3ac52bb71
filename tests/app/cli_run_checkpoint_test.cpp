// `gradstep run --checkpoint FILE` (and File > Open Checkpoint, which sets the same run override):
// a MindSpore checkpoint loaded into the network the script first calls, a bad file refused at the
// file before the script runs, and a checkpoint no Cell took said so. SPDX-License-Identifier: MIT
#include "tests/app/cli_support.h"

#include <catch2/catch.hpp>

using namespace gradstep::test;

namespace {

// Weights 7 and biases 0.5 saved by our writer; the loss of ones(1, 3) is then 2 * (3 * 7 + 0.5).
constexpr const char* kSave = R"PY(import sys, numpy as np, mindspore as ms
from mindspore import nn
net = nn.Dense(3, 2)
net.weight.set_data(ms.Tensor(np.full((2, 3), 7.0, np.float32)))
net.bias.set_data(ms.Tensor(np.full((2,), 0.5, np.float32)))
ms.save_checkpoint(net, sys.argv[1])
)PY";

constexpr const char* kTrain = R"PY(import numpy as np, mindspore as ms
from mindspore import nn
net = nn.Dense(3, 2)
grad_fn = ms.value_and_grad(lambda x: net(x).sum(), None, net.trainable_params())
loss, _ = grad_fn(ms.Tensor(np.ones((1, 3), np.float32)))
print("loss", float(loss))
)PY";

int save(const ScratchDir& dir)
{
    dir.write("save.py", kSave);
    return runGradstep("run -q " + shellQuote(dir.file("save.py").string()) + " -- "
                       + shellQuote(dir.file("dense.ckpt").string()))
        .status;
}

} // namespace

TEST_CASE("run --checkpoint loads the file into the network the script first calls")
{
    ScratchDir dir;
    dir.write("train.py", kTrain);
    REQUIRE(save(dir) == 0);
    const std::string ckpt = shellQuote(dir.file("dense.ckpt").string());

    const CommandResult plain = runGradstep("run " + shellQuote(dir.file("train.py").string()));
    REQUIRE(plain.status == 0);
    CHECK(plain.out.find("loss 43.0") == std::string::npos);

    const CommandResult loaded =
        runGradstep("run " + shellQuote(dir.file("train.py").string()) + " --checkpoint " + ckpt);
    INFO(loaded.err);
    REQUIRE(loaded.status == 0);
    CHECK(loaded.out.find("loss 43.0") != std::string::npos);
    CHECK(loaded.err.find("loaded 2 of 2 Parameters of Dense from") != std::string::npos);
}

TEST_CASE("run --checkpoint refuses a missing or corrupt file at the file, before the script runs")
{
    ScratchDir dir;
    dir.write("train.py", "print('the script ran')\n");
    dir.write("bad.ckpt", "not a protobuf message at all");
    const CommandResult corrupt = runGradstep("run " + shellQuote(dir.file("train.py").string())
                                              + " --checkpoint " + shellQuote(dir.file("bad.ckpt").string()));
    CHECK(corrupt.status == 1);
    CHECK(corrupt.out.find("the script ran") == std::string::npos);
    CHECK(corrupt.err.find("bad.ckpt: error: RuntimeError: cannot load this checkpoint") != std::string::npos);
    CHECK(corrupt.err.find("is not a complete MindSpore checkpoint") != std::string::npos);

    const CommandResult missing = runGradstep("run " + shellQuote(dir.file("train.py").string())
                                              + " --checkpoint " + shellQuote(dir.file("none.ckpt").string()));
    CHECK(missing.status == 1);
    CHECK(missing.err.find("does not exist") != std::string::npos);
    CHECK(missing.err.find("_debugger_checkpoint") == std::string::npos);
}

TEST_CASE("run --checkpoint says so when no Cell the script called holds one of its Parameters")
{
    ScratchDir dir;
    REQUIRE(save(dir) == 0);
    dir.write("other.py", "from mindspore import nn\nnn.ReLU()\nprint('done')\n");
    const CommandResult unused = runGradstep("run " + shellQuote(dir.file("other.py").string())
                                             + " --checkpoint " + shellQuote(dir.file("dense.ckpt").string()));
    CHECK(unused.status == 0);
    CHECK(unused.err.find("was not loaded: no Cell the script called holds a Parameter") != std::string::npos);
}
