// `gradstep migrate` as a user runs it on the pairs of samples/migration: the faithful port is
// equal, each port with a pitfall is diagnosed at the right layer with the right arguments named
// (app/cli_migrate.cpp, core/migrate). The pairs need python3-torch: they are compiled in only when
// CMake found it (GRADSTEP_HAVE_TORCH); the usage checks always run. SPDX-License-Identifier: MIT
#include "tests/app/migrate_cli.h"

#include <catch2/catch.hpp>

#include <cstdlib>

using namespace gradstep;
using namespace gradstep::test;

namespace {

std::string sample(const std::string& name) { return migrationSample(name); }

} // namespace

TEST_CASE("gradstep migrate refuses bad usage with status 2")
{
    CHECK(runGradstep("migrate").status == 2);
    CHECK(runGradstep("migrate " + sample("torch_cnn.py")).status == 2);
    CHECK(runGradstep("migrate " + sample("torch_cnn.py") + " " + sample("mindspore_cnn.py") + " --steps 0").status == 2);
    CHECK(runGradstep("migrate " + sample("torch_cnn.py") + " " + sample("mindspore_cnn.py") + " --tolerance x").status == 2);
    const CommandResult missing = runGradstep("migrate " + sample("torch_cnn.py") + " no_such_port.py");
    CHECK(missing.status == 2);
    CHECK_THAT(missing.err, Catch::Contains("cannot read the script 'no_such_port.py'"));
    ScratchDir dir;
    const auto map = dir.write("map.json", "[1, 2]");
    const CommandResult badMap = runGradstep("migrate " + sample("torch_cnn.py") + " " + sample("mindspore_cnn.py")
                                             + " --map " + shellQuote(map.string()));
    CHECK(badMap.status == 2);
    CHECK_THAT(badMap.err, Catch::Contains("must be a JSON object"));
}

TEST_CASE("gradstep migrate without PyTorch names the package to install and exits 1")
{
    // A python3 that cannot import torch: Debian's without its site directories.
    ScratchDir dir;
    const auto python = dir.write("python3-without-torch", "#!/bin/sh\nexec /usr/bin/python3 -S \"$@\"\n");
    std::filesystem::permissions(python, std::filesystem::perms::owner_all);
    ::setenv("GRADSTEP_MIGRATE_PYTHON", python.c_str(), 1);
    const CommandResult r = runGradstep("migrate " + sample("torch_cnn.py") + " " + sample("mindspore_cnn.py"));
    ::unsetenv("GRADSTEP_MIGRATE_PYTHON");
    CHECK(r.status == 1);
    CHECK_THAT(r.err, Catch::Contains("install Debian's python3-torch (sudo apt-get install python3-torch)"));
}

#ifdef GRADSTEP_HAVE_TORCH

TEST_CASE("the faithful MindSpore port of the PyTorch CNN is equal over three steps")
{
    const Json r = migrate("torch_cnn.py", "mindspore_cnn.py", "--steps 3");
    INFO(r.dump(2));
    CHECK(r["verdict"].asString() == "equal");
    CHECK(r["first_divergence"].isNull());
    CHECK(r["layers"].size() == 14);
    CHECK(r["layers"][0]["torch"].asString() == "conv1");
    CHECK(r["layers"][0]["shape_mindspore"].dump() == "[16,6,24,24]");
    REQUIRE(r["params"].size() == 14);
    for (const Json& p : r["params"].asArray())
        CHECK(p["update_max_abs_diff"].asNumber() < 1e-6);
    // BatchNorm's step counter has no MindSpore counterpart: listed, not skipped
    CHECK(r["unmatched"]["torch"].dump() == "[\"bn1.num_batches_tracked\"]");
    CHECK(r["unmatched"]["mindspore"].size() == 0);
}

TEST_CASE("an LSTM's tuple output is compared tensor by tensor: output, h and c of the faithful port are equal")
{
    const Json r = migrate("torch_lstm.py", "mindspore_lstm.py", "--steps 2");
    INFO(r.dump(2));
    CHECK(r["verdict"].asString() == "equal");
    // lstm's (output, (h, c)) as three rows, then fc and the model.
    REQUIRE(r["layers"].size() == 5);
    const char* elements[] = {"0", "1.0", "1.1"};
    const char* shapes[] = {"[8,5,12]", "[1,8,12]", "[1,8,12]"};
    for (int i = 0; i < 3; ++i) {
        INFO(i);
        CHECK(r["layers"][i]["torch"].asString() == "lstm");
        CHECK(r["layers"][i]["element"].asString() == elements[i]);
        CHECK(r["layers"][i]["shape_mindspore"].dump() == shapes[i]);
        CHECK(r["layers"][i]["forward_max_abs_diff"].asNumber() < 1e-5);
    }
    CHECK(r["layers"][3]["torch"].asString() == "fc");
    CHECK(r["layers"][3].find("element") == nullptr);
    CHECK(r["params"].size() == 6);
}

TEST_CASE("an LSTM port without batch_first diverges at the LSTM's output, naming batch_first")
{
    const Json r = migrate("torch_lstm.py", "mindspore_lstm_batch_first.py");
    requireDivergence(r, "lstm", "lstm", "forward");
    CHECK_THAT(explanation(r), Catch::StartsWith("output element 0: ")
                                   && Catch::Contains("batch_first=True in PyTorch's LSTM vs batch_first=False in "
                                                      "MindSpore's LSTM (MindSpore's default)"));
}

TEST_CASE("a port training through WithLossCell and TrainOneStepCell is equal, gradients included")
{
    const Json r = migrate("torch_cnn.py", "mindspore_cnn_train_one_step.py", "--steps 2");
    INFO(r.dump(2));
    CHECK(r["verdict"].asString() == "equal");
    REQUIRE(r["params"].size() == 14);
    CHECK(r["params"][0]["torch"].asString() == "conv1.weight");
    // the optimizer updates inside TrainOneStepCell: its gradients come from gradstep's update events
    CHECK(r["params"][0]["grad_max_abs_diff"].isNumber());
    CHECK(r["params"][0]["grad_max_abs_diff"].asNumber() < 1e-6);
}

TEST_CASE("Conv2d left at pad_mode='same' diverges in shape at conv1, naming padding and pad_mode")
{
    const Json r = migrate("torch_cnn.py", "mindspore_cnn_pad_mode.py");
    requireDivergence(r, "conv1", "conv1", "shape");
    CHECK_THAT(explanation(r), Catch::Contains("padding=0 in PyTorch's Conv2d vs pad_mode='same' in MindSpore's Conv2d"));
}

TEST_CASE("LeakyReLU's default alpha diverges at act2, naming negative_slope and alpha")
{
    const Json r = migrate("torch_cnn.py", "mindspore_cnn_leaky_relu.py");
    requireDivergence(r, "act2", "act2", "forward");
    CHECK_THAT(explanation(r), Catch::Contains("negative_slope=0.01") && Catch::Contains("alpha=0.2"));
}

TEST_CASE("BatchNorm momentum copied from PyTorch diverges in the running statistics of bn1")
{
    const Json r = migrate("torch_cnn.py", "mindspore_cnn_bn_momentum.py");
    requireDivergence(r, "bn1.running_mean", "bn1.moving_mean", "state");
    CHECK_THAT(explanation(r), Catch::Contains("momentum=0.1 in PyTorch's BatchNorm2d vs momentum=0.1 in MindSpore's"));
}

TEST_CASE("SoftmaxCrossEntropyWithLogits at reduction='none' diverges at the loss")
{
    const Json r = migrate("torch_cnn.py", "mindspore_cnn_loss_reduction.py");
    requireDivergence(r, "CrossEntropyLoss", "SoftmaxCrossEntropyWithLogits", "loss");
    CHECK_THAT(explanation(r), Catch::Contains("reduction='mean'") && Catch::Contains("reduction='none'"));
}

TEST_CASE("a port without set_train diverges at bn1, naming the training mode")
{
    const Json r = migrate("torch_cnn.py", "mindspore_cnn_eval_mode.py");
    requireDivergence(r, "bn1", "bn1", "forward");
    CHECK_THAT(explanation(r), Catch::Contains("training=True in PyTorch's BatchNorm2d vs training=False"));
}

TEST_CASE("float64 images from NumPy diverge at conv1, naming the dtype")
{
    const Json r = migrate("torch_cnn.py", "mindspore_cnn_float64.py");
    INFO(r.dump(2));
    REQUIRE(r["verdict"].asString() == "diverges");
    CHECK(r["first_divergence"]["torch"].asString() == "conv1");
    CHECK_THAT(explanation(r), Catch::Contains("float64"));
}

TEST_CASE("an optimizer without PyTorch's momentum diverges in the second step's update")
{
    const Json one = migrate("torch_cnn.py", "mindspore_cnn_sgd_momentum.py");
    CHECK(one["verdict"].asString() == "equal"); // the first update is the same with or without momentum
    const Json r = migrate("torch_cnn.py", "mindspore_cnn_sgd_momentum.py", "--steps 2");
    INFO(r.dump(2));
    REQUIRE(r["verdict"].asString() == "diverges");
    CHECK(r["first_divergence"]["kind"].asString() == "update");
    CHECK_THAT(explanation(r), Catch::Contains("momentum=0.9 in PyTorch's SGD vs momentum=0.0 in MindSpore's SGD"));
}

TEST_CASE("GELU's default approximation diverges at the GELU layer, naming approximate")
{
    const Json r = migrate("torch_mlp.py", "mindspore_mlp_gelu.py");
    requireDivergence(r, "1", "1", "forward");
    CHECK_THAT(explanation(r), Catch::Contains("approximate='none' in PyTorch's GELU vs approximate=True in MindSpore's GELU"));
}

TEST_CASE("Dropout's p carried over as keep_prob diverges at the Dropout layer, naming both")
{
    const Json r = migrate("torch_mlp.py", "mindspore_mlp_keep_prob.py");
    requireDivergence(r, "2", "2", "forward");
    CHECK_THAT(explanation(r), Catch::Contains("p=0.2 in PyTorch's Dropout vs keep_prob=0.2 in MindSpore's Dropout"));
}

TEST_CASE("without copying weights the initial distributions and initialisers are compared")
{
    const Json r = migrate("torch_cnn.py", "mindspore_cnn.py", "--no-copy-weights");
    INFO(r.dump(2));
    REQUIRE(r.contains("initial"));
    const Json* conv = nullptr;
    for (const Json& row : r["initial"].asArray())
        if (row["torch"].asString() == "conv1.weight")
            conv = &row;
    REQUIRE(conv);
    CHECK((*conv)["torch_initialiser"].asString() == "kaiming_uniform(a=sqrt(5))");
    CHECK((*conv)["mindspore_initialiser"].asString() == "HeUniform(negative_slope=sqrt(5))");
    CHECK((*conv)["torch_stats"]["max"].asNumber() <= 0.2 + 1e-6); // bound 1/sqrt(25)
}

TEST_CASE("a PyTorch script that fails before any step exits 1 with its traceback")
{
    ScratchDir dir;
    const auto broken = dir.write("broken_torch.py", "import torch\nraise RuntimeError('no data here')\n");
    const CommandResult r = runGradstep("migrate " + shellQuote(broken.string()) + " " + sample("mindspore_cnn.py"));
    CHECK(r.status == 1);
    CHECK_THAT(r.err, Catch::Contains("no data here"));
}

TEST_CASE("a port that fails before its network runs exits 1 with gradstep's diagnostic")
{
    ScratchDir dir;
    const auto broken = dir.write("broken_port.py", "import mindspore\nundefined_name + 1\n");
    const CommandResult r = runGradstep("migrate " + sample("torch_cnn.py") + " " + shellQuote(broken.string()));
    CHECK(r.status == 1);
    CHECK_THAT(r.err, Catch::Contains("NameError: name 'undefined_name' is not defined"));
}

#endif
