// `gradstep debug --watch overflow` on the scripts of tests/data/overflow: the first node whose
// float16 output overflowed (forward, backward) or underflowed, named as the NaN root cause is,
// with its float32 value; and no stop where float32 or float16 keeps every value.
// SPDX-License-Identifier: MIT
#include "io/json.h"
#include "tests/app/cli_support.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace gradstep;
using namespace gradstep::test;

namespace {

Json watchOverflow(const std::string& script)
{
    const CommandResult p = runGradstep("debug " + shellQuote(sourcePath("tests/data/overflow/" + script).string())
                                        + " --watch overflow --json --quiet");
    INFO(p.err);
    REQUIRE(p.status == 0);
    return Json::parse(p.out);
}

} // namespace

TEST_CASE("gradstep debug --watch overflow stops at the forward Exp whose float16 output overflowed, with the float32 value")
{
    const Json j = watchOverflow("forward_exp.py");
    CHECK(j["reason"].asString() == "watchpoint");
    CHECK(j["condition"].asString() == "overflow");
    CHECK(j["step"].asInt() == 1);
    CHECK(j["node"]["op"].asString() == "Exp");
    CHECK(j["node"]["phase"].asString() == "forward");
    CHECK(j["node"]["scope"].asString() == "Net");
    CHECK(j["location"]["line"].asInt() == 16);
    CHECK(j["location"]["col"].asInt() > 0);
    CHECK(j["location"]["source"].asString() == "        return ops.exp(h)  # line 16");
    CHECK(j["inputs"][0]["inf_count"].asInt() == 0);
    CHECK(j["outputs"][0]["inf_count"].asInt() == 3);
    CHECK(j["outputs"][0]["dtype"].asString() == "Float16");
    const Json& o = j["overflow"];
    CHECK(o["kind"].asString() == "overflow");
    CHECK(o["dtype"].asString() == "Float16");
    CHECK(o["output"].asInt() == 0);
    CHECK(o["count"].asInt() == 3);
    CHECK(o["index"].asInt() == 0);
    CHECK(o["half_value"].asString() == "inf");
    // exp(12) in float32 (the Dense's float16 output is exactly 12).
    CHECK(std::abs(o["float32_value"].asNumber() - 162754.79) < 0.1);
    CHECK(j["message"].asString().find("Float16 overflow first produced by Exp at Net/Exp") != std::string::npos);
    CHECK(j["message"].asString().find("forward phase, step 1") != std::string::npos);
    REQUIRE(j["watch"].size() == 1);
    CHECK(j["watch"][0]["quantity"].asString() == "overflow_count");
}

TEST_CASE("gradstep debug --watch overflow stops at the backward Cast where a scaled float32 loss gradient overflowed float16")
{
    const Json j = watchOverflow("backward_loss_scale.py");
    CHECK(j["reason"].asString() == "watchpoint");
    CHECK(j["node"]["op"].asString() == "Cast");
    CHECK(j["node"]["phase"].asString() == "backward");
    CHECK(j["location"]["line"].asInt() == 18);
    CHECK(j["inputs"][0]["dtype"].asString() == "Float32");
    CHECK(j["inputs"][0]["inf_count"].asInt() == 0);
    CHECK(j["outputs"][0]["dtype"].asString() == "Float16");
    const Json& o = j["overflow"];
    CHECK(o["kind"].asString() == "overflow");
    CHECK(o["count"].asInt() > 0);
    const double full = std::abs(o["float32_value"].asNumber());
    CHECK(full > 65504.0);
    CHECK(std::isfinite(full));
    CHECK(j["message"].asString().find("Float16 overflow first produced by Cast") != std::string::npos);
    CHECK(j["message"].asString().find("backward phase") != std::string::npos);
}

TEST_CASE("gradstep debug --watch overflow stops at the backward MatMul whose small float16 weight gradient underflowed to zero")
{
    const Json j = watchOverflow("underflow_small_gradients.py");
    CHECK(j["reason"].asString() == "watchpoint");
    CHECK(j["node"]["phase"].asString() == "backward");
    CHECK(j["node"]["op"].asString() == "MatMul");
    CHECK(j["location"]["line"].asInt() == 17);
    const Json& o = j["overflow"];
    CHECK(o["kind"].asString() == "underflow");
    CHECK(o["half_value"].asNumber() == 0.0);
    const double full = std::abs(o["float32_value"].asNumber());
    CHECK(full > 0.0);
    CHECK(full < 5.97e-8); // below float16's smallest value
    CHECK(o["count"].asInt() > 0);
    CHECK(j["message"].asString().find("Float16 underflow first produced by MatMul") != std::string::npos);
}

TEST_CASE("gradstep debug --watch overflow does not stop in float32, nor in float16 whose values stay in range")
{
    for (const char* script : {"float32_no_overflow.py", "float16_in_range.py"}) {
        INFO(script);
        const Json j = watchOverflow(script);
        CHECK(j["reason"].asString() == "end");
        CHECK(j["node"].isNull());
        CHECK_FALSE(j.contains("overflow"));
    }
}

TEST_CASE("gradstep debug --watch overflow takes no threshold")
{
    const CommandResult p = runGradstep("debug " + shellQuote(sourcePath("tests/data/overflow/forward_exp.py").string())
                                        + " --watch overflow=3");
    CHECK(p.status == 2);
    CHECK(p.err.find("takes no threshold") != std::string::npos);
}
