// Tests core/migrate/comparison.cpp and difference.cpp over captures built in memory.
// SPDX-License-Identifier: MIT
#include "migrate/comparison.h"

#include "tests/migrate/capture_builder.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::migrate;
using gradstep::test::CaptureBuilder;

namespace {

/// A two-layer model: fc (Linear/Dense) then act (LeakyReLU); MindSpore's act has `alpha`.
std::pair<CaptureBuilder, CaptureBuilder> twoLayers(double alpha, std::vector<double> msActOutput)
{
    CaptureBuilder t("torch"), m("mindspore");
    t.module("", "Net").module("fc", "Linear", Json::parse(R"({"bias": true})"))
        .module("act", "LeakyReLU", Json::parse(R"({"negative_slope": 0.01})"));
    m.module("", "Net").module("fc", "Dense", Json::parse(R"({"has_bias": true})"))
        .module("act", "LeakyReLU", Json(Json::Object{{"alpha", alpha}}));
    t.param("fc.weight", {2, 2}).param("fc.bias", {2});
    m.param("fc.weight", {2, 2}).param("fc.bias", {2});
    t.forward("fc", {1, 2}, {1.0, -2.0}).forward("act", {1, 2}, {1.0, -0.02}).forward("", {1, 2}, {1.0, -0.02});
    m.forward("fc", {1, 2}, {1.0, -2.0}).forward("act", {1, 2}, msActOutput).forward("", {1, 2}, msActOutput);
    for (CaptureBuilder* side : {&t, &m}) {
        side->tensor("grad/1/fc.weight", {2, 2}, {0.1, 0.2, 0.3, 0.4}).tensor("grad/1/fc.bias", {2}, {0.5, 0.6});
        side->tensor("after/1/fc.weight", {2, 2}, {1, 2, 3, 4}).tensor("after/1/fc.bias", {2}, {5, 6});
        side->tensor("loss/1", {}, {0.7});
    }
    return {t, m};
}

} // namespace

TEST_CASE("identical captures are equal, with one row per layer and per parameter")
{
    auto [t, m] = twoLayers(0.01, {1.0, -0.02});
    const MigrationResult r = compareCaptures(t.build(), m.build(), {});
    CHECK_FALSE(r.diverges);
    CHECK_FALSE(r.firstDivergence);
    REQUIRE(r.layers.size() == 3);
    CHECK(r.layers[0].torch == "fc");
    CHECK(r.layers[0].mindspore == "fc");
    CHECK(*r.layers[1].forwardMaxAbsDiff == 0.0);
    REQUIRE(r.params.size() == 2);
    CHECK(r.unmatchedTorch.empty());
    CHECK(r.unmatchedMindspore.empty());
}

TEST_CASE("the first forward output beyond tolerance is the first divergence, explained by the arguments")
{
    auto [t, m] = twoLayers(0.2, {1.0, -0.4});
    const MigrationResult r = compareCaptures(t.build(), m.build(), {});
    REQUIRE(r.firstDivergence);
    CHECK(r.firstDivergence->torch == "act");
    CHECK(r.firstDivergence->kind == DivergenceKind::Forward);
    CHECK(*r.firstDivergence->maxAbsDiff == Approx(0.38));
    CHECK_THAT(r.firstDivergence->explanation, Catch::Contains("negative_slope=0.01 in PyTorch's LeakyReLU vs alpha=0.2"));
}

TEST_CASE("rounding differences within the tolerance scaled to the values' magnitude are equal")
{
    auto [t, m] = twoLayers(0.01, {1.0, -0.02 + 1e-7});
    CHECK_FALSE(compareCaptures(t.build(), m.build(), {}).diverges);
    CompareOptions strict;
    strict.tolerance = 1e-8;
    CHECK(compareCaptures(t.build(), m.build(), strict).diverges);
}

TEST_CASE("a shape difference is a divergence at that layer, before the error it causes later")
{
    CaptureBuilder t("torch"), m("mindspore");
    t.module("", "Net").module("conv", "Conv2d", Json::parse(R"({"padding": [0, 0], "bias": true})"))
        .module("fc", "Linear");
    m.module("", "Net").module("conv", "Conv2d", Json::parse(R"({"pad_mode": "same", "has_bias": true})"))
        .module("fc", "Dense");
    t.forward("conv", {1, 1, 1, 2}, {1, 2}).forward("fc", {1, 1}, {3});
    m.forward("conv", {1, 1, 2, 2}, {1, 2, 3, 4});
    m.set("error", Json::parse(R"({"module": "fc", "type": "ValueError", "message": "shapes do not match"})"));
    const MigrationResult r = compareCaptures(t.build(), m.build(), {});
    REQUIRE(r.firstDivergence);
    CHECK(r.firstDivergence->kind == DivergenceKind::Shape);
    CHECK(r.firstDivergence->torch == "conv");
    CHECK_FALSE(r.firstDivergence->maxAbsDiff);
    CHECK_THAT(r.firstDivergence->explanation, Catch::Contains("padding=0 in PyTorch's Conv2d vs pad_mode='same'"));
}

TEST_CASE("an error with no earlier difference is the divergence at the Cell that raised")
{
    CaptureBuilder t("torch"), m("mindspore");
    t.module("", "Net").module("fc", "Linear").module("head", "Linear");
    m.module("", "Net").module("fc", "Dense").module("head", "Dense");
    t.forward("fc", {1, 2}, {1, 2}).forward("head", {1, 1}, {3});
    m.forward("fc", {1, 2}, {1, 2});
    m.set("error", Json::parse(R"({"module": "head", "type": "TypeError", "message": "bad input"})"));
    const MigrationResult r = compareCaptures(t.build(), m.build(), {});
    REQUIRE(r.firstDivergence);
    CHECK(r.firstDivergence->kind == DivergenceKind::Error);
    CHECK(r.firstDivergence->mindspore == "head");
    CHECK_THAT(r.firstDivergence->explanation, Catch::StartsWith("MindSpore raised TypeError: bad input"));
}

TEST_CASE("equal forward passes with a differing buffer after the step diverge in state")
{
    CaptureBuilder t("torch"), m("mindspore");
    t.module("", "Net").module("bn", "BatchNorm1d", Json::parse(R"({"momentum": 0.1, "eps": 1e-05})"));
    m.module("", "Net").module("bn", "BatchNorm1d", Json::parse(R"({"momentum": 0.1, "eps": 1e-05})"));
    t.param("bn.running_mean", {2}, true);
    m.param("bn.moving_mean", {2}, true);
    t.forward("bn", {1, 2}, {0, 0});
    m.forward("bn", {1, 2}, {0, 0});
    t.tensor("after/1/bn.running_mean", {2}, {0.1, 0.2});
    m.tensor("after/1/bn.moving_mean", {2}, {0.9, 1.8});
    const MigrationResult r = compareCaptures(t.build(), m.build(), {});
    REQUIRE(r.firstDivergence);
    CHECK(r.firstDivergence->kind == DivergenceKind::State);
    CHECK(r.firstDivergence->torch == "bn.running_mean");
    CHECK(r.firstDivergence->mindspore == "bn.moving_mean");
    CHECK_THAT(r.firstDivergence->explanation, Catch::Contains("1 - PyTorch's"));
}

TEST_CASE("a loss of another shape is a loss divergence named by the reductions")
{
    auto [t, m] = twoLayers(0.01, {1.0, -0.02});
    t.set("loss", Json::parse(R"({"class": "CrossEntropyLoss", "args": {"reduction": "mean"}})"));
    m.set("loss", Json::parse(R"({"class": "SoftmaxCrossEntropyWithLogits", "args": {"given": {"sparse": true}, "defaults": {"reduction": "'none'"}}})"));
    m.tensor("loss/1", {2}, {0.6, 0.8});
    const MigrationResult r = compareCaptures(t.build(), m.build(), {});
    REQUIRE(r.firstDivergence);
    CHECK(r.firstDivergence->kind == DivergenceKind::Loss);
    CHECK(r.firstDivergence->torch == "CrossEntropyLoss");
    CHECK_THAT(r.firstDivergence->explanation, Catch::Contains("reduction='none'"));
}

TEST_CASE("parameters without a counterpart are listed as unmatched")
{
    auto [t, m] = twoLayers(0.01, {1.0, -0.02});
    t.param("extra.scale", {7});
    m.param("other", {3});
    const MigrationResult r = compareCaptures(t.build(), m.build(), {});
    CHECK(r.unmatchedTorch == std::vector<std::string>{"extra.scale"});
    CHECK(r.unmatchedMindspore == std::vector<std::string>{"other"});
}

TEST_CASE("a difference measures transposed 2-D tensors element by element")
{
    const std::vector<double> a = {1, 2, 3, 4, 5, 6};      // 2x3
    const std::vector<double> b = {1, 4, 2, 5, 3, 6.5};    // the 3x2 transpose, one value off
    const Difference d = difference(a, b, true, {2, 3}, 0);
    CHECK(d.maxAbs == Approx(0.5));
    CHECK(d.relative == Approx(0.5 / 6));
}
