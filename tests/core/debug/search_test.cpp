// Tests of record search (core/debug/search.h) and stat conditions. SPDX-License-Identifier: MIT
#include "debug/search.h"
#include "ops/ops.h"
#include "tests/core/debug/debug_test_util.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::debug;
using namespace gradstep::debug::testing;

namespace {
std::vector<RecordPtr> growingRun(Recorder& recorder)
{
    recorder.stepStarted(0);
    ObserverGuard attach(&recorder);
    Tensor x = Tensor::full(Shape{3}, 2.0);
    for (int i = 0; i < 12; ++i)
        x = mul(x, Tensor::full(Shape{}, 2.0)); // 4, 8, ..., 8192
    return recorder.currentRecords();
}
} // namespace

TEST_CASE("the first record whose output exceeded a threshold is found, and the last before a point")
{
    Recorder recorder;
    const std::vector<RecordPtr> records = growingRun(recorder);
    REQUIRE(records.size() == 12);
    const RecordPredicate above = anyOutput(parseStatCondition("max>1e3"));
    RecordPtr first = firstRecordWhere(records, above);
    REQUIRE(first);
    CHECK(first->outputs[0].stats.max == 1024.0);
    RecordPtr last = lastRecordWhere(records, above);
    CHECK(last == records.back());
    RecordPtr before = lastRecordWhere(records, above, first->seq);
    CHECK_FALSE(before);
    RecordPtr stepBack = lastRecordWhere(records, anyOutput(parseStatCondition("max<100")), records.back()->seq);
    REQUIRE(stepBack);
    CHECK(stepBack->outputs[0].stats.max == 64.0);
    CHECK_FALSE(firstRecordWhere(records, producesNonFinite()));
}

TEST_CASE("predicates combine name globs, phases and tensor identity")
{
    Recorder recorder;
    const std::vector<RecordPtr> records = growingRun(recorder);
    CHECK(firstRecordWhere(records, allOf(nameMatches("M*"), inPhase(Phase::Forward))) == records.front());
    CHECK_FALSE(firstRecordWhere(records, inPhase(Phase::Backward)));
    const TensorId third = records[2]->outputs[0].id;
    CHECK(firstRecordWhere(records, touches(third)) == records[2]);
    CHECK(lastRecordWhere(records, touches(third)) == records[3]);
}

TEST_CASE("stat conditions parse with spaces and every comparison, and print back")
{
    const StatCondition c = parseStatCondition(" l2 >= 2.5 ");
    CHECK(c.stat == Stat::L2);
    CHECK(c.compare == Compare::GreaterEqual);
    CHECK(c.threshold == 2.5);
    CHECK(c.toString() == "l2>=2.5");
    CHECK(parseStatCondition("mean!=0").compare == Compare::NotEqual);
    CHECK(parseStatCondition("mean==0").compare == Compare::Equal);
    CHECK(parseStatCondition("mean<0").compare == Compare::Less);
    CHECK(parseStatCondition("mean<=+1e-3").threshold == 1e-3);
    CHECK_THROWS_AS(parseStatCondition("mean=>3"), ValueError);
    CHECK_FALSE(compareHolds(std::numeric_limits<double>::quiet_NaN(), Compare::NotEqual, 1.0));
    CHECK(parseNumber("inf") == std::numeric_limits<double>::infinity());
    CHECK_FALSE(parseNumber("1e3x"));
    CHECK_FALSE(parseNumber(""));
}
