// Tests core/migrate/report.cpp: the JSON report has exactly the keys issue 20 specifies.
// SPDX-License-Identifier: MIT
#include "migrate/report.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::migrate;

TEST_CASE("the JSON report holds the verdict, the first divergence, layers, params and unmatched")
{
    MigrationResult r;
    r.diverges = true;
    r.firstDivergence = Divergence{"conv1", "conv1", DivergenceKind::Shape, 1, {}, {}, "padding=0 vs pad_mode='same'"};
    r.layers.push_back({"conv1", "conv1", "Conv2d", "Conv2d", 1, "", {}, {2, 6, 24, 24}, {2, 6, 28, 28}, true});
    r.params.push_back({"conv1.weight", "conv1.weight", {6, 1, 5, 5}, false, 0.5, {}, false, "conv1", "conv1"});
    r.unmatchedTorch = {"bn1.num_batches_tracked"};
    const Json j = reportJson(r);
    std::vector<std::string> keys;
    for (const auto& [key, value] : j.asObject())
        keys.push_back(key);
    CHECK(keys == std::vector<std::string>{"verdict", "first_divergence", "layers", "params", "unmatched"});
    CHECK(j["verdict"].asString() == "diverges");
    CHECK(j["first_divergence"]["kind"].asString() == "shape");
    CHECK(j["first_divergence"]["max_abs_diff"].isNull());
    CHECK(j["layers"][0]["shape_mindspore"][3].asInt() == 28);
    CHECK(j["layers"][0]["forward_max_abs_diff"].isNull());
    CHECK(j["params"][0]["grad_max_abs_diff"].asNumber() == 0.5);
    CHECK(j["params"][0]["update_max_abs_diff"].isNull());
    CHECK(j["unmatched"]["torch"][0].asString() == "bn1.num_batches_tracked");
    CHECK(j["unmatched"]["mindspore"].size() == 0);
}

TEST_CASE("an equal comparison reports verdict equal and a null first divergence")
{
    MigrationResult r;
    r.steps = 1;
    const Json j = reportJson(r);
    CHECK(j["verdict"].asString() == "equal");
    CHECK(j["first_divergence"].isNull());
    CHECK_THAT(reportText(r), Catch::StartsWith("verdict: equal (1 step"));
}
