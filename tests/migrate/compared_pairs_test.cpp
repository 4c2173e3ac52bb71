// Tests core/migrate/compared_pairs.cpp: the pairs a view steps through, in execution order, each
// measured as the comparison measured it. SPDX-License-Identifier: MIT
#include "migrate/compared_pairs.h"

#include "tests/migrate/capture_builder.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::migrate;
using gradstep::test::CaptureBuilder;

namespace {

/// fc (Linear/Dense) then act (LeakyReLU); MindSpore's act output given; MindSpore's fc.weight
/// after the update differs by `updateOffset`.
std::pair<Capture, Capture> captures(std::vector<double> msAct, double updateOffset = 0)
{
    CaptureBuilder t("torch"), m("mindspore");
    t.module("", "Net").module("fc", "Linear", Json::parse(R"({"bias": true})"))
        .module("act", "LeakyReLU", Json::parse(R"({"negative_slope": 0.01})"));
    m.module("", "Net").module("fc", "Dense", Json::parse(R"({"has_bias": true})"))
        .module("act", "LeakyReLU", Json(Json::Object{{"alpha", 0.2}}));
    t.param("fc.weight", {2, 2}).param("fc.bias", {2});
    m.param("fc.weight", {2, 2}).param("fc.bias", {2});
    t.forward("fc", {1, 2}, {1.0, -2.0}).forward("act", {1, 2}, {1.0, -0.02}).forward("", {1, 2}, {1.0, -0.02});
    m.forward("fc", {1, 2}, {1.0, -2.0}).forward("act", {1, 2}, msAct).forward("", {1, 2}, msAct);
    t.tensor("after/1/fc.weight", {2, 2}, {1, 2, 3, 4});
    m.tensor("after/1/fc.weight", {2, 2}, {1, 2, 3, 4 + updateOffset});
    for (CaptureBuilder* side : {&t, &m}) {
        side->tensor("grad/1/fc.weight", {2, 2}, {0.1, 0.2, 0.3, 0.4}).tensor("grad/1/fc.bias", {2}, {0.5, 0.6});
        side->tensor("after/1/fc.bias", {2}, {5, 6});
        side->tensor("loss/1", {}, {0.7});
    }
    return {t.build(), m.build()};
}

} // namespace

TEST_CASE("compared pairs run forward outputs, loss, gradients last layer first, then updates")
{
    const auto [t, m] = captures({1.0, -0.4});
    const MigrationResult r = compareCaptures(t, m, {});
    const std::vector<ComparedPair> pairs = comparedPairs(t, m, r, 1);
    REQUIRE(pairs.size() == 8);
    const std::pair<DivergenceKind, std::string> expected[] = {
        {DivergenceKind::Forward, "fc"},         {DivergenceKind::Forward, "act"},
        {DivergenceKind::Forward, ""},           {DivergenceKind::Loss, "loss"},
        {DivergenceKind::Gradient, "fc.bias"},   {DivergenceKind::Gradient, "fc.weight"},
        {DivergenceKind::Update, "fc.weight"},   {DivergenceKind::Update, "fc.bias"}};
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        INFO(i);
        CHECK(pairs[i].kind == expected[i].first);
        CHECK(pairs[i].torch == expected[i].second);
    }
    CHECK(pairs[0].status == PairStatus::Equal);
    CHECK(pairs[0].torchKey == "fwd/1/0");
    CHECK(pairs[1].status == PairStatus::Diverges);
    CHECK(*pairs[1].maxAbsDiff == Approx(0.38));
    CHECK(pairs[4].torchModule == "fc");
    CHECK(pairs[4].msModule == "fc");
    CHECK(pairs[4].torchKey == "grad/1/fc.bias");
    REQUIRE(firstDivergencePair(pairs, r));
    CHECK(*firstDivergencePair(pairs, r) == 1);
}

TEST_CASE("compared pairs say within tolerance for rounding and diverges past it, as the comparison does")
{
    const auto [t, m] = captures({1.0, -0.02}, 1e-7);
    const MigrationResult r = compareCaptures(t, m, {});
    CHECK_FALSE(r.diverges);
    const std::vector<ComparedPair> pairs = comparedPairs(t, m, r, 1);
    REQUIRE(pairs.size() == 8);
    CHECK(pairs[6].torch == "fc.weight");
    CHECK(pairs[6].status == PairStatus::WithinTolerance);
    CHECK_FALSE(firstDivergencePair(pairs, r));
    const auto [t2, m2] = captures({1.0, -0.02}, 0.5);
    const MigrationResult r2 = compareCaptures(t2, m2, {});
    const std::vector<ComparedPair> apart = comparedPairs(t2, m2, r2, 1);
    CHECK(apart[6].status == PairStatus::Diverges);
    REQUIRE(firstDivergencePair(apart, r2));
    CHECK(*firstDivergencePair(apart, r2) == 6);
}

TEST_CASE("a pair whose MindSpore tensor was never recorded is unmatched")
{
    CaptureBuilder t("torch"), m("mindspore");
    t.module("", "Net").module("fc", "Linear").module("act", "ReLU");
    m.module("", "Net").module("fc", "Dense").module("act", "ReLU");
    t.param("fc.weight", {1, 1});
    m.param("fc.weight", {1, 1});
    t.forward("fc", {1, 1}, {1.0}).forward("act", {1, 1}, {1.0});
    m.forward("fc", {1, 1}, {1.0});
    const Capture tc = t.build(), mc = m.build();
    const MigrationResult r = compareCaptures(tc, mc, {});
    const std::vector<ComparedPair> pairs = comparedPairs(tc, mc, r, 1);
    REQUIRE(pairs.size() >= 2);
    CHECK(pairs[1].torch == "act");
    CHECK(pairs[1].status == PairStatus::Unmatched);
    CHECK(pairs[1].msKey.empty());
    CHECK(pairs[1].torchKey == "fwd/1/1");
}
