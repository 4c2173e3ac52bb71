// Time travel within a step: step back, jump to a record, search backwards, and the
// deterministic re-run when the memory cap dropped the snapshots needed. SPDX-License-Identifier: MIT
#include "tests/session/session_test_support.h"

#include "tensor/errors.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::debug;
using namespace gradstep::debug::test;

TEST_CASE("step back and jump show recorded nodes of the step without running")
{
    ScriptSession s(kTrainScript);
    s->load(RunCommand::of(RunCommand::Kind::EndOfStep));
    auto live = waitStopped(*s);
    REQUIRE(live->status == SessionStatus::Paused);
    const std::size_t n = live->records.size();
    REQUIRE(n > 4);
    const std::uint64_t nodesBefore = live->nodesExecuted;

    REQUIRE(s->stepBack());
    auto view = s->state();
    CHECK(view->timeTravel);
    CHECK(view->node->seq == live->records[n - 2]->seq);
    CHECK(view->liveNode->seq == live->liveNode->seq);
    CHECK(view->records.size() == n - 1);

    REQUIRE(s->jumpTo(live->records[1]->seq));
    view = s->state();
    CHECK(view->node->seq == live->records[1]->seq);
    CHECK(view->records.size() == 2);
    REQUIRE_FALSE(view->node->outputs.empty());
    CHECK(view->node->outputs[0].snapshot.defined());
    CHECK(view->node->outputs[0].stats.hasHistogram); // filled when shown
    REQUIRE(s->stepBack());
    CHECK(s->state()->node->seq == live->records[0]->seq);
    CHECK_FALSE(s->stepBack()); // nothing before the first record

    // Step into while looking at the past moves the view forward, not the script.
    REQUIRE(s->stepInto());
    CHECK(s->state()->node->seq == live->records[1]->seq);
    CHECK(s->status() == SessionStatus::Paused);
    CHECK(s->state()->nodesExecuted == nodesBefore);
    REQUIRE(s->returnToLive());
    CHECK_FALSE(s->state()->timeTravel);
    CHECK(s->state()->node->seq == live->liveNode->seq);

    // The script goes on from where it really is.
    REQUIRE(s->stepInto());
    auto next = waitStopped(*s);
    CHECK(next->step == 2);
    CHECK(next->nodesExecuted == nodesBefore + 1);
}

TEST_CASE("searching backwards finds the first node of the step where a condition held")
{
    ScriptSession s(kTrainScript);
    s->load(RunCommand::of(RunCommand::Kind::EndOfStep));
    auto live = waitStopped(*s);
    REQUIRE(live->status == SessionStatus::Paused);

    RecordPtr matmul = s->findFirst("op:MatMul");
    REQUIRE(matmul);
    CHECK(matmul->phase == Phase::Forward);
    CHECK(matmul->seq == live->records[0]->seq);
    RecordPtr backward = s->findFirst("phase:backward");
    REQUIRE(backward);
    CHECK(backward->phase == Phase::Backward);
    RecordPtr big = s->findFirst("tensor:max_abs>1e30");
    CHECK_FALSE(big);
    RecordPtr above = s->findFirst("above:max_abs=0");
    REQUIRE(above);
    CHECK(s->findFirst([](const NodeRecord& r) { return r.phase == Phase::Update; })->phase == Phase::Update);
    CHECK_THROWS_AS(s->findFirst("no such thing"), ValueError);

    REQUIRE(s->jumpToFirst("phase:backward")->seq == backward->seq);
    CHECK(s->state()->node->seq == backward->seq);
    CHECK(s->state()->node->outputs[0].stats.hasHistogram);
    CHECK(s->state()->timeTravel);
}

TEST_CASE("jumping to a node whose snapshots were dropped re-runs the script to it")
{
    SessionOptions options;
    options.memoryCapBytes = 64; // a few small tensors at most
    ScriptSession s(kTrainScript, options);
    s->load(RunCommand::of(RunCommand::Kind::EndOfStep));
    auto live = waitStopped(*s);
    REQUIRE(live->status == SessionStatus::Paused);
    REQUIRE(live->dropped.snapshots > 0);

    // The earliest record that lost an output snapshot small enough to fit the cap.
    RecordPtr target;
    for (const RecordPtr& r : live->records)
        if (!r->outputs.empty() && r->outputs[0].snapshotDropped
            && r->outputs[0].stats.count * 4 <= 64 && r != live->liveNode) {
            target = r;
            break;
        }
    REQUIRE(target);
    REQUIRE(s->jumpTo(target->seq));
    auto replayed = waitStopped(*s);
    REQUIRE(replayed->status == SessionStatus::Paused);
    CHECK(replayed->why.reason == PauseReason::Command);
    CHECK_FALSE(replayed->timeTravel);
    CHECK(replayed->step == target->step);
    REQUIRE(replayed->node);
    CHECK(replayed->node->seq == target->seq);
    CHECK(replayed->node->op == target->op);
    REQUIRE(replayed->node->outputs[0].snapshot.defined());
    // Deterministic: the same values as the first time.
    CHECK(replayed->node->outputs[0].stats.mean == target->outputs[0].stats.mean);
    CHECK(replayed->node->outputs[0].stats.max == target->outputs[0].stats.max);

    // From there the run goes on normally.
    REQUIRE(s->runToEndOfStep());
    auto end = waitStopped(*s);
    CHECK(end->history.size() == 1);
    CHECK(end->history[0].loss == live->history[0].loss);
}
