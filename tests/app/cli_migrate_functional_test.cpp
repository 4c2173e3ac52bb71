// `gradstep migrate` on the pairs whose pitfall sits in a model's own forward code, not in a
// module's arguments: torch_gated_mlp.py against its faithful port and its ports with a split,
// norm, clamp or normalize call that computes something else (and one with Nesterov left out).
// Each must name the first layer that parts and both calls with their arguments. Compiled in only
// with python3-torch (GRADSTEP_HAVE_TORCH). SPDX-License-Identifier: MIT
#include "tests/app/migrate_cli.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::test;

#ifdef GRADSTEP_HAVE_TORCH

TEST_CASE("the faithful port of the gated MLP's split, norm, clamp and normalize calls is equal over two steps")
{
    const Json r = migrate("torch_gated_mlp.py", "mindspore_gated_mlp.py", "--steps 2");
    INFO(r.dump(2));
    CHECK(r["verdict"].asString() == "equal");
    CHECK(r["layers"].size() == 4);
}

TEST_CASE("torch.split's size written as Split's output_num is named where the port raises")
{
    const Json r = migrate("torch_gated_mlp.py", "mindspore_gated_mlp_split.py");
    requireDivergence(r, "", "", "error");
    CHECK_THAT(explanation(r),
               Catch::Contains("ValueError: too many values to unpack")
                   && Catch::Contains("torch.split(x, 8, dim=1) makes 2 pieces of size 8 along axis 1; "
                                      "ops.Split(axis=1, output_num=8)(x) makes 8 pieces of size 2 along axis 1")
                   && Catch::Contains("write ops.split(x, 8, axis=1)"));
}

TEST_CASE("a norm without PyTorch's p=1 and a clamp bound passed as clip_value_min are named at the next layer")
{
    const Json norm = migrate("torch_gated_mlp.py", "mindspore_gated_mlp_norm.py");
    requireDivergence(norm, "fc2", "fc2", "forward");
    CHECK_THAT(explanation(norm), Catch::StartsWith("in the model's own code: x.norm(p=1, dim=1, keepdim=True)")
                                      && Catch::Contains("is the 1-norm, p=1")
                                      && Catch::Contains("the 2-norm, ord=None (MindSpore's default)"));
    const Json clamp = migrate("torch_gated_mlp.py", "mindspore_gated_mlp_clamp.py");
    requireDivergence(clamp, "out", "out", "forward");
    CHECK_THAT(explanation(clamp), Catch::Contains("x.clamp(max=0.05) (a PyTorch Tensor method) keeps the values in "
                                                   "(-inf, 0.05]; ops.clip_by_value(x, 0.05) keeps the values in [0.05, inf)"));
}

TEST_CASE("L2Normalize at its default axis is named against F.normalize's dim, and Nesterov left out at the update")
{
    const Json normalize = migrate("torch_gated_mlp.py", "mindspore_gated_mlp_normalize.py");
    requireDivergence(normalize, "out", "out", "forward");
    CHECK_THAT(explanation(normalize), Catch::Contains("torch.nn.functional.normalize(x, p=2, dim=1, eps=1e-12) vs "
                                                       "ops.L2Normalize(axis=0, epsilon=0.0001)(x): normalises along "
                                                       "dim=1 vs axis=0"));
    const Json nesterov = migrate("torch_gated_mlp.py", "mindspore_gated_mlp_nesterov.py");
    requireDivergence(nesterov, "fc1.weight", "fc1.weight", "update");
    CHECK(nesterov["first_divergence"]["step"].asInt() == 1);
    CHECK_THAT(explanation(nesterov), Catch::Contains("nesterov=True in PyTorch's SGD vs use_nesterov=False in "
                                                      "MindSpore's Momentum (MindSpore's default)"));
}

TEST_CASE("a loss computed with ops.cross_entropy is compared at the call, naming its reduction")
{
    const Json r = migrate("torch_cnn.py", "mindspore_cnn_functional_loss.py");
    requireDivergence(r, "CrossEntropyLoss", "ops.cross_entropy", "loss");
    CHECK_THAT(explanation(r), Catch::Contains("reduction='mean' in PyTorch's CrossEntropyLoss vs reduction='sum' in "
                                               "MindSpore's ops.cross_entropy"));
    for (const Json& layer : r["layers"].asArray())
        CHECK(layer["forward_max_abs_diff"].asNumber() < 1e-5); // the network itself is faithful
}

TEST_CASE("a module PyTorch calls twice is compared with the port's second Cell at its second call")
{
    const Json r = migrate("torch_cnn.py", "mindspore_cnn_pool_stride.py");
    requireDivergence(r, "pool", "pool2", "shape");
    CHECK_THAT(explanation(r), Catch::Contains("stride=2 in PyTorch's MaxPool2d vs stride=1 in MindSpore's MaxPool2d"));
    CHECK(r["unmatched"]["mindspore"].size() == 0); // pool1 and pool2 both stand for pool
}

#endif
