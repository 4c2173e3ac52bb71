// Tests core/migrate/matching.cpp. SPDX-License-Identifier: MIT
#include "migrate/matching.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::migrate;

namespace {

ParamInfo info(const std::string& name, std::vector<std::int64_t> shape, const std::string& cls = "",
               bool buffer = false)
{
    const auto dot = name.rfind('.');
    return {name, dot == std::string::npos ? "" : name.substr(0, dot),
            dot == std::string::npos ? name : name.substr(dot + 1), cls, std::move(shape), buffer};
}

const ParamPair* pairOf(const std::vector<ParamPair>& pairs, const std::string& torch)
{
    for (const ParamPair& p : pairs)
        if (p.torch == torch)
            return &p;
    return nullptr;
}

} // namespace

TEST_CASE("BatchNorm's weight, bias and running statistics match gamma, beta and the moving statistics")
{
    const std::vector<ParamInfo> torch = {info("bn.weight", {6}, "BatchNorm2d"), info("bn.bias", {6}, "BatchNorm2d"),
                                          info("bn.running_mean", {6}, "BatchNorm2d", true),
                                          info("bn.running_var", {6}, "BatchNorm2d", true)};
    // MindSpore lists the moving statistics first: matching by name must not pair them by order.
    const std::vector<ParamInfo> ms = {info("bn.moving_mean", {6}, "", true), info("bn.moving_variance", {6}, "", true),
                                       info("bn.gamma", {6}), info("bn.beta", {6})};
    const auto pairs = matchParameters(torch, ms, {});
    REQUIRE(pairs.size() == 4);
    CHECK(pairOf(pairs, "bn.weight")->mindspore == "bn.gamma");
    CHECK(pairOf(pairs, "bn.bias")->mindspore == "bn.beta");
    CHECK(pairOf(pairs, "bn.running_mean")->mindspore == "bn.moving_mean");
    CHECK(pairOf(pairs, "bn.running_var")->mindspore == "bn.moving_variance");
}

TEST_CASE("parameters under other names are matched in order when their shapes agree")
{
    const std::vector<ParamInfo> torch = {info("features.0.weight", {6, 1, 5, 5}, "Conv2d"),
                                          info("features.0.bias", {6}, "Conv2d"), info("classifier.weight", {10, 96}, "Linear")};
    const std::vector<ParamInfo> ms = {info("conv.weight", {6, 1, 5, 5}), info("conv.bias", {6}), info("fc.weight", {10, 96})};
    const auto pairs = matchParameters(torch, ms, {});
    REQUIRE(pairs.size() == 3);
    CHECK(pairOf(pairs, "features.0.bias")->mindspore == "conv.bias");
    CHECK(pairOf(pairs, "classifier.weight")->mindspore == "fc.weight");
    CHECK_FALSE(pairOf(pairs, "classifier.weight")->transpose);
}

TEST_CASE("a 2-D weight held transposed is matched with the transpose flag, a wrong shape is not matched")
{
    const std::vector<ParamInfo> torch = {info("fc.weight", {10, 96}, "Linear"), info("fc.bias", {10}, "Linear")};
    const std::vector<ParamInfo> ms = {info("w", {96, 10}), info("b", {11})};
    const auto pairs = matchParameters(torch, ms, {});
    REQUIRE(pairs.size() == 1);
    CHECK(pairs[0].mindspore == "w");
    CHECK(pairs[0].transpose);
}

TEST_CASE("the user's map overrides the matching by name")
{
    const std::vector<ParamInfo> torch = {info("a.weight", {4}), info("b.weight", {4})};
    const std::vector<ParamInfo> ms = {info("a.weight", {4}), info("b.weight", {4})};
    const auto pairs = matchParameters(torch, ms, {{"a.weight", "b.weight"}, {"b.weight", "a.weight"}});
    REQUIRE(pairs.size() == 2);
    CHECK(pairOf(pairs, "a.weight")->mindspore == "b.weight");
    CHECK(pairOf(pairs, "b.weight")->mindspore == "a.weight");
}

TEST_CASE("the match request of the MindSpore side is answered with pairs as JSON")
{
    const Json torch = Json::parse(R"({"params": [{"name": "bn.weight", "module": "bn", "attr": "weight", "shape": [3],
        "kind": "parameter"}], "modules": [{"path": "bn", "class": "BatchNorm1d"}]})");
    const Json answer = Json::parse(answerMatchRequest(
        torch, R"({"params": [{"name": "bn.gamma", "module": "bn", "attr": "gamma", "shape": [3], "kind": "parameter"}]})", {}));
    REQUIRE(answer["pairs"].size() == 1);
    CHECK(answer["pairs"][0]["torch"].asString() == "bn.weight");
    CHECK(answer["pairs"][0]["mindspore"].asString() == "bn.gamma");
    CHECK(answer["pairs"][0]["transpose"].asBool() == false);
}

TEST_CASE("modules are matched by path, by the owners of matched parameters and by corresponding classes in order")
{
    const Json torchModules = Json::parse(R"([{"path": "", "class": "Net"}, {"path": "fc", "class": "Linear"},
        {"path": "act", "class": "ReLU"}, {"path": "head", "class": "Linear"}])");
    const Json msModules = Json::parse(R"([{"path": "", "class": "Net"}, {"path": "dense1", "class": "Dense"},
        {"path": "relu", "class": "ReLU"}, {"path": "head", "class": "Dense"}])");
    const std::vector<ParamInfo> tp = {info("fc.weight", {3, 2}, "Linear")};
    const std::vector<ParamInfo> mp = {info("dense1.weight", {3, 2})};
    const auto pairs = matchModules(torchModules, msModules, {"fc", "act", "head", ""}, {"dense1", "relu", "head", ""},
                                    tp, mp, {{"fc.weight", "dense1.weight", false}}, {});
    std::map<std::string, std::string> found;
    for (const ModulePair& p : pairs)
        found[p.torch] = p.mindspore;
    CHECK(found.at("") == "");
    CHECK(found.at("fc") == "dense1");
    CHECK(found.at("act") == "relu");
    CHECK(found.at("head") == "head");
}
