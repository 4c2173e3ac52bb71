// `gradstep compare` as a user runs it: the built executable, its table, its JSON report and its
// exit statuses (app/cli_compare.cpp). SPDX-License-Identifier: MIT
#include "tests/app/compare_cli.h"

#include "io/json.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::test;

TEST_CASE("gradstep compare --what has-aux prints the table and writes the JSON report")
{
    ScratchDir dir;
    const auto report = dir.file("report.json");
    const CommandResult c = compareCli(sample("has_aux_pitfall.py") + " --what has-aux --quiet --report "
                                 + quoted(report));
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("A = has_aux on, B = has_aux off"));
    CHECK_THAT(c.out, Catch::Contains("verdict") && Catch::Contains("different"));
    CHECK_THAT(c.out, Catch::Contains("forward passes"));
    const Json r = Json::parseFile(report.string());
    CHECK(r["what"].asString() == "has-aux");
    CHECK(r["a"]["label"].asString() == "has_aux on");
    CHECK(r["b"]["label"].asString() == "has_aux off");
    for (const char* side : {"a", "b"}) {
        const Json& s = r[side];
        CHECK(s["loss"].isNumber());
        CHECK(s["forward_passes"].asInt() == 1);
        CHECK(s["nodes"].asInt() > 0);
        CHECK(s["seconds"].isNumber());
        REQUIRE(s["params"].size() == 2);
        const Json& bias = s["params"][1];
        CHECK(bias["name"].asString() == "bias");
        CHECK(bias["grad_first5"].size() == 3);
        CHECK(bias["grad_norm"].asNumber() >= 0.0);
        CHECK(bias["grad_sum"].isNumber());
        CHECK_FALSE(s.contains("error"));
    }
    CHECK(r["a"]["loss"].asNumber() == r["b"]["loss"].asNumber());
    REQUIRE(r["diff"].size() == 2);
    CHECK(r["diff"][1]["name"].asString() == "bias");
    CHECK(r["diff"][1]["verdict"].asString() == "different");
    CHECK(r["diff"][1]["max_abs_diff"].asNumber() > 1.0);
    CHECK(r["diff"][1]["rel_diff"].asNumber() > 1e-3);
    // The difference between the sides is exactly what the sums of the bias gradients say.
    const double sumA = r["a"]["params"][1]["grad_sum"].asNumber();
    const double sumB = r["b"]["params"][1]["grad_sum"].asNumber();
    CHECK(sumB - sumA == Approx(3 * 8.0).epsilon(1e-4)); // 8 rows, 3 logits each
}

TEST_CASE("gradstep compare --what grad-api reports one forward pass against two")
{
    ScratchDir dir;
    const auto report = dir.file("r.json");
    const CommandResult c = compareCli(sample("linear_regression.py")
                                 + " --what grad-api --quiet --seed 7 --report " + quoted(report));
    INFO(c.out);
    REQUIRE(c.status == 0);
    const Json r = Json::parseFile(report.string());
    CHECK(r["a"]["forward_passes"].asInt() == 1);
    CHECK(r["b"]["forward_passes"].asInt() == 2);
    CHECK(r["b"]["nodes"].asInt() > r["a"]["nodes"].asInt());
    for (const Json& d : r["diff"].asArray())
        CHECK(d["verdict"].asString() == "equal");
}

TEST_CASE("gradstep compare --what api shows the AttributeError of the 1.10 side and exits 1")
{
    ScratchDir dir;
    const auto report = dir.file("r.json");
    const CommandResult c = compareCli(sample("linear_regression.py") + " --what api --quiet --report "
                                 + quoted(report));
    INFO(c.out);
    CHECK(c.status == 1);
    CHECK_THAT(c.out, Catch::Contains("gave no step: AttributeError: module 'mindspore' has no "
                                      "attribute 'value_and_grad'"));
    const Json r = Json::parseFile(report.string());
    CHECK_FALSE(r["a"].contains("error"));
    CHECK_THAT(r["b"]["error"].asString(), Catch::StartsWith("AttributeError"));
    CHECK(r["b"]["error_location"]["line"].asInt() > 0);
    CHECK(r["b"]["loss"].isNull());
    CHECK(r["diff"].size() == 0);
}

TEST_CASE("gradstep compare refuses bad usage with status 2 and documents itself")
{
    CHECK(compareCli("").status == 2);
    CHECK(compareCli(sample("linear_regression.py")).status == 2);
    const CommandResult unknown = compareCli(sample("linear_regression.py") + " --what speed");
    CHECK(unknown.status == 2);
    CHECK_THAT(unknown.out, Catch::Contains("unknown --what 'speed'"));
    CHECK(compareCli(sample("linear_regression.py") + " --what api --seed -1").status == 2);
    CHECK(compareCli(sample("linear_regression.py") + " --what").status == 2);
    const CommandResult help = compareCli("--help");
    CHECK(help.status == 0);
    for (const char* text : {"--what has-aux", "--what mode", "--what grad-api", "--what api",
                             "--report", "--seed", "--quiet", "exit status"})
        CHECK_THAT(help.out, Catch::Contains(text));
}

TEST_CASE("gradstep compare exits 1 when the script fails before its first step")
{
    ScratchDir dir;
    const auto script = dir.write("broken.py", "import mindspore as ms\nms.nonexistent()\n");
    const CommandResult c = compareCli(quoted(script) + " --what has-aux");
    INFO(c.out);
    CHECK(c.status == 1);
    CHECK_THAT(c.out, Catch::Contains("AttributeError"));
}
