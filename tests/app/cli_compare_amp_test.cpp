// `gradstep compare --what amp`: float32 everywhere against the script's mixed precision (or amp's
// O2 when it has none), Note [The amp what-if] in core/python/host/run_amp.cpp.
// SPDX-License-Identifier: MIT
#include "tests/app/compare_cli.h"

#include "io/json.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;
using namespace gradstep::test;

TEST_CASE("compare --what amp on a float32 script runs A in float32 and B with amp's O2 on its network")
{
    ScratchDir dir;
    const auto report = dir.file("r.json");
    const CommandResult c = compareCli(sample("has_aux_pitfall.py") + " --what amp --quiet --report " + quoted(report));
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("compare amp: A = O0 (float32), B = mixed precision (as written, else O2)"));
    const Json r = Json::parseFile(report.string());
    CHECK(r["what"].asString() == "amp");
    // O2 adds casts around the float16 network: more forward and backward nodes on B.
    CHECK(r["b"]["nodes_by_phase"]["forward"].asInt() > r["a"]["nodes_by_phase"]["forward"].asInt());
    for (const Json& d : r["diff"].asArray()) {
        // float16 rounding: close, never equal bit for bit, never far apart.
        CHECK(d["verdict"].asString() == "close");
        CHECK(d["rel_diff"].asNumber() > 1e-6);
        CHECK(d["rel_diff"].asNumber() < 1e-2);
    }
}

TEST_CASE("compare --what amp: O0 keeps a script's to_float(float16) in float32, B runs it as written")
{
    ScratchDir dir;
    const auto script = dir.write("half.py",
        "import numpy as np\nimport mindspore as ms\nfrom mindspore import nn\n"
        "net = nn.Dense(3, 2).to_float(ms.float16)\n"
        "x = ms.Tensor(np.ones((4, 3), np.float32))\n"
        "print('dtype', net(x).dtype)\n"
        "grad_fn = ms.value_and_grad(lambda a: net(a).astype(ms.float32).sum(), None, net.trainable_params())\n"
        "loss, grads = grad_fn(x)\n");
    const auto report = dir.file("r.json");
    const CommandResult c = compareCli(quoted(script) + " --what amp --report " + quoted(report));
    INFO(c.out);
    REQUIRE(c.status == 0);
    const auto a = c.out.find("dtype Float32");
    const auto b = c.out.find("dtype Float16");
    CHECK(a != std::string::npos);
    CHECK(b != std::string::npos);
    const Json r = Json::parseFile(report.string());
    REQUIRE(r["diff"].size() == 2);
}

TEST_CASE("compare --what amp on the mixed-precision sample: B's first step overflows, and the curves say when the scale fits")
{
    ScratchDir dir;
    const auto report = dir.file("r.json");
    const CommandResult c = compareCli(sample("mixed_precision.py") + " --what amp --steps 6 --quiet --report "
                                       + quoted(report));
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("this step's gradients overflowed"));
    const Json r = Json::parseFile(report.string());
    // A (float32) has finite gradients; B's first step does not.
    bool aFinite = true, bFinite = true;
    for (const Json& d : r["diff"].asArray()) {
        aFinite = aFinite && d["norm_a"].isNumber() && std::isfinite(d["norm_a"].asNumber());
        bFinite = bFinite && d["norm_b"].isNumber() && std::isfinite(d["norm_b"].asNumber());
    }
    CHECK(aFinite);
    CHECK_FALSE(bFinite);
    REQUIRE(r["b"]["steps"].size() == 6);
}
