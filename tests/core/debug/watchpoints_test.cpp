// Tests of watchpoints (core/debug/watchpoints.h): each MindInsight-style condition, the step
// checks on parameters, and parsing of --watch lists. SPDX-License-Identifier: MIT
#include "debug/watchpoints.h"
#include "ops/elementwise.h"
#include "tests/core/debug/debug_test_util.h"

#include <catch2/catch.hpp>

#include <limits>

using namespace gradstep;
using namespace gradstep::debug;
using namespace gradstep::debug::testing;

namespace {
constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();

Tensor values(std::vector<float> v) { return Tensor::fromVector<float>(Shape{static_cast<std::int64_t>(v.size())}, v); }

std::vector<WatchHit> check(const char* item, const NodeRecord& r)
{
    Watchpoint wp = parseWatchpoint(item);
    wp.id = 3;
    return checkRecord(wp, r);
}
} // namespace

TEST_CASE("the NaN watchpoint names the node, tensor, count and location")
{
    const NodeRecord r = recordOf("Log", Phase::Forward, {values({0, 1})}, {values({kNaNf, 0})});
    const std::vector<WatchHit> hits = check("nan", r);
    REQUIRE(hits.size() == 1);
    CHECK(hits[0].watchpointId == 3);
    CHECK(hits[0].recordSeq == 7);
    CHECK(hits[0].node == "Net/block/Log");
    CHECK(hits[0].tensor == "#7:0");
    CHECK(hits[0].value == 1.0);
    CHECK(hits[0].location.line == 27);
    CHECK(hits[0].message == "NaN/Inf: output 0 of Net/block/Log (train.py:27) has nonfinite_count 1 > 0");
    CHECK(check("nan", recordOf("Log", Phase::Forward, {}, {values({1})})).empty());
}

TEST_CASE("above and below compare the chosen statistic, max_abs by default")
{
    const NodeRecord r = recordOf("Mul", Phase::Forward, {}, {values({-2000, 3})});
    std::vector<WatchHit> hits = check("above=1e3", r);
    REQUIRE(hits.size() == 1);
    CHECK(hits[0].quantity == "max_abs");
    CHECK(hits[0].value == 2000.0);
    CHECK(hits[0].threshold == 1000.0);
    CHECK(check("above:max=1e3", r).empty());
    CHECK(check("below:min=-1e3", r).size() == 1);
    CHECK(check("below:mean_abs=1", r).empty());
}

TEST_CASE("vanishing and exploding gradients are checked on backward outputs only")
{
    const NodeRecord tiny = recordOf("MatMul", Phase::Backward, {values({1})}, {values({1e-9f, 0})});
    const std::vector<WatchHit> hits = check("vanishing=1e-7", tiny);
    REQUIRE(hits.size() == 1);
    CHECK(hits[0].quantity == "l2");
    CHECK(hits[0].message
          == "gradient vanishing: output 0 of backward of Net/block/MatMul (train.py:27) has l2 "
             "9.999999717180685e-10 < 1e-07");
    NodeRecord forward = tiny;
    forward.phase = Phase::Forward;
    CHECK(check("vanishing=1e-7", forward).empty());
    CHECK(check("exploding=1e3", recordOf("MatMul", Phase::Backward, {}, {values({3000, 0})})).size() == 1);
    const std::vector<WatchHit> overflow
        = check("exploding", recordOf("MatMul", Phase::Backward, {}, {values({kNaNf, 0})}));
    REQUIRE(overflow.size() == 1);
    CHECK(overflow[0].quantity == "nonfinite_count");
    CHECK(check("exploding=1e3", recordOf("MatMul", Phase::Backward, {}, {values({3, 0})})).empty());
}

TEST_CASE("saturation counts sigmoid outputs near 0 or 1 and tanh outputs near -1 or 1")
{
    const NodeRecord sigmoid = recordOf("Sigmoid", Phase::Forward, {}, {values({0.001f, 0.999f, 0.995f, 0.5f})});
    const std::vector<WatchHit> hits = check("saturation=0.7", sigmoid);
    REQUIRE(hits.size() == 1);
    CHECK(hits[0].value == 0.75);
    CHECK(check("saturation=0.8", sigmoid).empty());
    const NodeRecord tanh = recordOf("Tanh", Phase::Forward, {}, {values({0.001f, -0.999f, 0.995f, 0.5f})});
    CHECK(check("saturation=0.4", tanh).size() == 1);  // 2 of 4; the value near 0 is not saturated
    CHECK(check("saturation=0.5", tanh).empty());
    CHECK(check("saturation=0.1", recordOf("Exp", Phase::Forward, {}, {values({1, 1})})).empty());
}

TEST_CASE("dead ReLU is the share of zeros in a ReLU's output")
{
    const NodeRecord relu = recordOf("ReLU", Phase::Forward, {}, {values({0, 0, 0, 2})});
    const std::vector<WatchHit> hits = check("dead_relu=0.5", relu);
    REQUIRE(hits.size() == 1);
    CHECK(hits[0].quantity == "zero_share");
    CHECK(hits[0].value == 0.75);
    CHECK(check("dead_relu", relu).empty()); // default share 0.9
}

TEST_CASE("parameter watchpoints read the step summary: gradients, weight change and overflow")
{
    Recorder recorder;
    TinyTraining training(0.1);
    const StepSummary step = training.step(recorder, 0);
    CHECK(checkStep(parseWatchpoint("vanishing=1e-12"), step).empty());
    CHECK(checkStep(parseWatchpoint("vanishing=1e9"), step).size() == training.params().size());
    CHECK(checkStep(parseWatchpoint("exploding=1e-12"), step).size() == training.params().size());
    CHECK(checkStep(parseWatchpoint("unchanged"), step).empty());
    CHECK(checkStep(parseWatchpoint("change_above=1e-12"), step).size() == training.params().size());
    const std::vector<WatchHit> below = checkStep(parseWatchpoint("change_below=10"), step);
    REQUIRE(below.size() == training.params().size());
    CHECK(below[0].recordSeq == 0);
    CHECK(below[0].node == training.params()[0].name());
    CHECK(below[0].tensor == "param:" + training.params()[0].name());
    CHECK(below[0].message.find("weight change below threshold: param:") == 0);
    CHECK(checkStep(parseWatchpoint("nan"), step).empty());
}

TEST_CASE("a learning rate of zero leaves the weights unchanged and the watchpoint says so")
{
    Recorder recorder;
    TinyTraining training(0.0);
    const StepSummary step = training.step(recorder, 0);
    const std::vector<WatchHit> hits = checkStep(parseWatchpoint("unchanged=1e-8"), step);
    REQUIRE(hits.size() == training.params().size());
    CHECK(hits[0].value == 0.0);
    CHECK(hits[0].quantity == "weight_change");
}

TEST_CASE("a dead ReLU in a real net is caught on its forward record")
{
    Recorder recorder;
    recorder.stepStarted(0);
    {
        ObserverGuard attach(&recorder);
        relu(values({-1, -2, -3, 4}));
    }
    WatchpointSet set;
    set.add("dead_relu=0.5,nan");
    const std::vector<WatchHit> hits = set.check(*recorder.lastRecord());
    REQUIRE(hits.size() == 1);
    CHECK(hits[0].node == "ReLU");
    CHECK(set.all()[0].hitCount == 1);
    CHECK(set.all()[1].hitCount == 0);
}

TEST_CASE("watch lists parse into conditions with defaults and print back")
{
    const std::vector<Watchpoint> list = parseWatchpoints(
        "nan,vanishing=1e-7,exploding=1e3,above:max=5,below=-1,unchanged,change_above=0.1,"
        "change_below=1e-6,saturation,dead_relu=0.95");
    REQUIRE(list.size() == 10);
    CHECK(list[0].kind == Watchpoint::Kind::NanInf);
    CHECK(list[1].threshold == 1e-7);
    CHECK(list[3].stat == Stat::Max);
    CHECK(list[4].stat == Stat::MaxAbs);
    CHECK(list[5].threshold == 1e-8);
    CHECK(list[8].threshold == 0.9);
    CHECK(list[3].toString() == "above:max=5");
    CHECK(list[1].toString() == "vanishing=1e-07");
    CHECK(parseWatchpoint("inf").kind == Watchpoint::Kind::NanInf);
    CHECK(parseWatchpoint("overflow").kind == Watchpoint::Kind::HalfPrecisionOverflow);
    CHECK(parseWatchpoint("overflow").toString() == "overflow");
    WatchpointSet set;
    const std::vector<int> ids = set.add("nan,dead_relu");
    CHECK(ids.size() == 2);
    CHECK(set.setEnabled(ids[0], false));
    CHECK(set.remove(ids[1]));
    CHECK(set.all().size() == 1);
}

TEST_CASE("malformed watch lists are refused with a message naming the item")
{
    auto message = [](const char* text) {
        try {
            parseWatchpoints(text);
        } catch (const ValueError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(message("nan,,vanishing") == "watchpoint '': empty item, expected one of nan, overflow, above, below, "
                                       "vanishing, exploding, unchanged, change_above, change_below, "
                                       "saturation, dead_relu");
    CHECK(message("nan,exploded=3").find("watchpoint 'exploded=3': unknown condition 'exploded'") == 0);
    CHECK(message("above") == "watchpoint 'above': needs a threshold, e.g. above=1e3");
    CHECK(message("vanishing=tiny") == "watchpoint 'vanishing=tiny': threshold 'tiny' is not a number");
    CHECK(message("nan=1") == "watchpoint 'nan=1': takes no threshold");
    CHECK(message("overflow=1") == "watchpoint 'overflow=1': takes no threshold");
    CHECK(message("above:biggest=1").find("unknown statistic 'biggest'") != std::string::npos);
}
