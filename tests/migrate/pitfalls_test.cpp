// Tests core/migrate/pitfalls.cpp: each known difference is named with both sides' arguments.
// SPDX-License-Identifier: MIT
#include "migrate/pitfalls.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::migrate;

namespace {

Json torchModule(const std::string& cls, const std::string& args, bool training = true)
{
    return Json(Json::Object{{"path", "m"}, {"class", cls}, {"training", training}, {"args", Json::parse(args)}});
}

Json msModule(const std::string& cls, const std::string& given, const std::string& defaults = "{}", bool training = true)
{
    return Json(Json::Object{{"path", "m"}, {"class", cls}, {"training", training},
                             {"args", Json(Json::Object{{"given", Json::parse(given)}, {"defaults", Json::parse(defaults)}})}});
}

std::string only(const std::vector<std::string>& found)
{
    REQUIRE(found.size() == 1);
    return found[0];
}

} // namespace

TEST_CASE("Conv2d's padding against MindSpore's default pad_mode='same' is named with both values")
{
    const Json t = torchModule("Conv2d", R"({"padding": [0, 0], "bias": true, "stride": [1, 1], "dilation": [1, 1], "groups": 1})");
    const Json m = msModule("Conv2d", R"({"has_bias": true})", R"({"pad_mode": "'same'", "stride": "1", "dilation": "1", "group": "1"})");
    const std::string why = only(modulePitfalls(&t, &m));
    CHECK_THAT(why, Catch::Contains("padding=0 in PyTorch's Conv2d vs pad_mode='same' in MindSpore's Conv2d (MindSpore's default)"));
}

TEST_CASE("Conv2d's bias against MindSpore's has_bias=False default is named")
{
    const Json t = torchModule("Conv2d", R"({"padding": [0, 0], "bias": true})");
    const Json m = msModule("Conv2d", R"({"pad_mode": "valid"})", R"({"has_bias": "False"})");
    CHECK(only(modulePitfalls(&t, &m)) == "bias=True in PyTorch's Conv2d vs has_bias=False in MindSpore's Conv2d (MindSpore's default)");
}

TEST_CASE("LeakyReLU's negative_slope and MindSpore's alpha are compared")
{
    const Json t = torchModule("LeakyReLU", R"({"negative_slope": 0.01})");
    const Json m = msModule("LeakyReLU", "{}", R"({"alpha": "0.2"})");
    CHECK(only(modulePitfalls(&t, &m)) == "negative_slope=0.01 in PyTorch's LeakyReLU vs alpha=0.2 in MindSpore's LeakyReLU (MindSpore's default)");
    const Json same = msModule("LeakyReLU", R"({"alpha": 0.01})");
    CHECK(modulePitfalls(&t, &same).empty());
}

TEST_CASE("BatchNorm's momentum is expected as 1 - PyTorch's")
{
    const Json t = torchModule("BatchNorm2d", R"({"momentum": 0.1, "eps": 1e-05, "affine": true})");
    const Json faithful = msModule("BatchNorm2d", R"({"momentum": 0.9, "eps": 1e-05})");
    CHECK(modulePitfalls(&t, &faithful).empty());
    const Json copied = msModule("BatchNorm2d", R"({"momentum": 0.1, "eps": 1e-05})");
    const std::string why = only(modulePitfalls(&t, &copied));
    CHECK_THAT(why, Catch::StartsWith("momentum=0.1 in PyTorch's BatchNorm2d vs momentum=0.1 in MindSpore's BatchNorm2d"));
    CHECK_THAT(why, Catch::Contains("momentum=0.9"));
}

TEST_CASE("a BatchNorm left in evaluation mode is named by its training flags")
{
    const Json t = torchModule("BatchNorm2d", R"({"momentum": 0.1})", true);
    const Json m = msModule("BatchNorm2d", R"({"momentum": 0.9})", "{}", false);
    CHECK_THAT(only(modulePitfalls(&t, &m)), Catch::Contains("set_train()"));
}

TEST_CASE("Dropout's p against keep_prob")
{
    const Json t = torchModule("Dropout", R"({"p": 0.2})");
    const Json m = msModule("Dropout", R"({"keep_prob": 0.2})", R"({"p": "None"})");
    CHECK_THAT(only(modulePitfalls(&t, &m)), Catch::StartsWith("p=0.2 in PyTorch's Dropout vs keep_prob=0.2 in MindSpore's Dropout"));
    const Json right = msModule("Dropout", R"({"p": 0.2})");
    CHECK(modulePitfalls(&t, &right).empty());
}

TEST_CASE("GELU's approximate: exact in PyTorch by default, tanh in MindSpore by default")
{
    const Json t = torchModule("GELU", R"({"approximate": "none"})");
    const Json m = msModule("GELU", "{}", R"({"approximate": "True"})");
    CHECK_THAT(only(modulePitfalls(&t, &m)), Catch::StartsWith("approximate='none' in PyTorch's GELU vs approximate=True in MindSpore's GELU (MindSpore's default)"));
    const Json exact = msModule("GELU", R"({"approximate": false})");
    CHECK(modulePitfalls(&t, &exact).empty());
}

TEST_CASE("a loss left at MindSpore's reduction='none' is named")
{
    const Json t = Json::parse(R"({"class": "CrossEntropyLoss", "args": {"reduction": "mean"}})");
    const Json m = Json::parse(R"({"class": "SoftmaxCrossEntropyWithLogits", "args": {"given": {"sparse": true}, "defaults": {"reduction": "'none'"}}})");
    CHECK_THAT(only(lossPitfalls(&t, &m)), Catch::StartsWith("reduction='mean' in PyTorch's CrossEntropyLoss vs reduction='none' in MindSpore's SoftmaxCrossEntropyWithLogits (MindSpore's default)"));
}

TEST_CASE("SGD's momentum and dampening are compared with MindSpore's optimizer")
{
    const Json t = Json::parse(R"({"class": "SGD", "args": {"lr": 0.01, "momentum": 0.9, "dampening": 0, "nesterov": false, "weight_decay": 0}})");
    const Json sgd = Json::parse(R"({"class": "SGD", "args": {"given": {"learning_rate": 0.01}, "defaults": {"momentum": "0.0", "dampening": "0.0", "nesterov": "False", "weight_decay": "0.0"}}})");
    CHECK(only(optimizerPitfalls(&t, &sgd)) == "momentum=0.9 in PyTorch's SGD vs momentum=0.0 in MindSpore's SGD (MindSpore's default)");
    const Json momentum = Json::parse(R"({"class": "Momentum", "args": {"given": {"learning_rate": 0.01, "momentum": 0.9}, "defaults": {"weight_decay": "0.0", "use_nesterov": "False"}}})");
    CHECK(optimizerPitfalls(&t, &momentum).empty());
}

TEST_CASE("float64 and NHWC input are named from what the port fed its network")
{
    const Json inputs = Json::parse(R"([{"shape": [2, 28, 28, 1], "dtype": "float64", "substituted": true, "layout": "NHWC"}])");
    const auto why = inputPitfalls(&inputs);
    REQUIRE(why.size() == 2);
    CHECK_THAT(why[0], Catch::Contains("float64"));
    CHECK_THAT(why[1], Catch::Contains("NHWC"));
}
