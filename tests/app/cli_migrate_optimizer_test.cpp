// `gradstep migrate` on the optimizer, normalisation, layout and initialiser pitfalls:
// torch_cnn_adam.py (an nn.Sequential CNN, BatchNorm eps=1e-3, Adam with weight decay) against its
// ports as one SequentialCell, and torch_lstm.py's SGD dampening. Each must name the first pair
// that parts, its step and both sides' arguments. Compiled in only with python3-torch.
// SPDX-License-Identifier: MIT
#include "tests/app/migrate_cli.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::test;

#ifdef GRADSTEP_HAVE_TORCH

TEST_CASE("a port faithful in every Adam argument still parts at the first update by Adam's eps placement")
{
    const Json r = migrate("torch_cnn_adam.py", "mindspore_cnn_adam.py");
    requireDivergence(r, "0.weight", "0.weight", "update");
    // the numbered layers of nn.Sequential and nn.SequentialCell matched, BatchNorm's renamings too
    CHECK(r["unmatched"]["torch"].dump() == "[\"1.num_batches_tracked\"]");
    CHECK(r["unmatched"]["mindspore"].size() == 0);
    for (const Json& layer : r["layers"].asArray())
        CHECK(layer["forward_max_abs_diff"].asNumber() < 1e-5);
    CHECK_THAT(explanation(r), Catch::Contains("PyTorch's Adam adds eps to the bias-corrected sqrt(v), MindSpore's Adam "
                                               "adds it before the correction"));
}

TEST_CASE("BatchNorm's eps left at MindSpore's default is named at the BatchNorm, weight decay left out at the update")
{
    const Json eps = migrate("torch_cnn_adam.py", "mindspore_cnn_adam_bn_eps.py");
    requireDivergence(eps, "1", "1", "forward");
    CHECK_THAT(explanation(eps), Catch::Contains("eps=0.001 in PyTorch's BatchNorm2d vs eps=1e-05 in MindSpore's "
                                                 "BatchNorm2d (MindSpore's default)"));
    const Json decay = migrate("torch_cnn_adam.py", "mindspore_cnn_adam_weight_decay.py");
    requireDivergence(decay, "0.weight", "0.weight", "update");
    CHECK_THAT(explanation(decay), Catch::Contains("weight_decay=0.01 in PyTorch's Adam vs weight_decay=0.0 in "
                                                   "MindSpore's Adam (MindSpore's default)"));
}

TEST_CASE("AdamWeightDecay for Adam's L2 decay and an NHWC batch are named")
{
    const Json decoupled = migrate("torch_cnn_adam.py", "mindspore_cnn_adam_decoupled.py");
    requireDivergence(decoupled, "0.weight", "0.weight", "update");
    CHECK_THAT(explanation(decoupled), Catch::StartsWith("PyTorch's Adam adds weight_decay * w to the gradient; "
                                                         "MindSpore's AdamWeightDecay decays the weights apart from it"));
    const Json nhwc = migrate("torch_cnn_adam.py", "mindspore_cnn_adam_nhwc.py");
    requireDivergence(nhwc, "0", "0", "error");
    CHECK_THAT(explanation(nhwc), Catch::Contains("input has 16 channels")
                                      && Catch::Contains("NCHW batch in PyTorch vs NHWC in MindSpore (shape (8, 16, 16, 3))"));
}

TEST_CASE("without copied weights HeUniform() is named against PyTorch's kaiming_uniform(a=sqrt(5))")
{
    const Json r = migrate("torch_cnn_adam.py", "mindspore_cnn_adam_he_uniform.py", "--no-copy-weights");
    INFO(r.dump(2));
    CHECK_THAT(explanation(r), Catch::Contains("initial values that differ: 0.weight kaiming_uniform(a=sqrt(5)) (std 0.11) "
                                               "vs 0.weight HeUniform() (std 0.271)"));
    std::vector<std::string> differing;
    for (const Json& row : r["initial"].asArray())
        if (row["differs"].asBool())
            differing.push_back(row["torch"].asString());
    CHECK(differing == std::vector<std::string>{"0.weight", "5.weight"});
}

TEST_CASE("SGD's dampening written as Momentum parts at the second step's update")
{
    const Json r = migrate("torch_lstm.py", "mindspore_lstm_dampening.py", "--steps 2");
    requireDivergence(r, "lstm.weight_ih_l0", "lstm.weight_ih_l0", "update");
    CHECK(r["first_divergence"]["step"].asInt() == 2);
    CHECK_THAT(explanation(r), Catch::Contains("dampening=0.1 in PyTorch's SGD vs MindSpore's Momentum, which has no "
                                               "dampening"));
}

#endif
