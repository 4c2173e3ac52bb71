// Tests of the recorder (core/debug/recorder.h) on a real training step of a tiny net.
// SPDX-License-Identifier: MIT
#include "debug/recorder.h"
#include "ops/elementwise/defs.h"
#include "ops/ops.h"
#include "tests/core/debug/debug_test_util.h"

#include <catch2/catch.hpp>

#include <thread>

using namespace gradstep;
using namespace gradstep::debug;
using namespace gradstep::debug::testing;

namespace {
std::vector<Phase> phasesOf(const std::vector<RecordPtr>& records)
{
    std::vector<Phase> phases;
    for (const RecordPtr& r : records)
        if (phases.empty() || phases.back() != r->phase)
            phases.push_back(r->phase);
    return phases;
}

const NodeRecord* findOp(const std::vector<RecordPtr>& records, const std::string& op, Phase phase)
{
    for (const RecordPtr& r : records)
        if (r->op == op && r->phase == phase)
            return r.get();
    return nullptr;
}
} // namespace

TEST_CASE("a training step is recorded as forward nodes, then backward nodes, then the update")
{
    Recorder recorder;
    TinyTraining training;
    const StepSummary summary = training.step(recorder, 1);
    const std::vector<RecordPtr> records = recorder.currentRecords();
    CHECK(phasesOf(records) == std::vector<Phase>{Phase::Forward, Phase::Backward, Phase::Update});
    CHECK(summary.forwardNodes > 0);
    CHECK(summary.backwardNodes > 0);
    CHECK(summary.updateNodes == training.params().size());
    CHECK(summary.forwardNodes + summary.backwardNodes + summary.updateNodes == records.size());
    for (std::size_t i = 1; i < records.size(); ++i)
        CHECK(records[i]->seq > records[i - 1]->seq);
    for (const RecordPtr& r : records)
        CHECK(r->step == 1);
    const NodeRecord* matmul = findOp(records, "MatMul", Phase::Forward);
    REQUIRE(matmul);
    CHECK(matmul->fullName == "SequentialCell/0/MatMul");
    CHECK(matmul->fullName == matmul->scope + "/MatMul");
    const NodeRecord* update = findOp(records, "ApplyGradientDescent", Phase::Update);
    REQUIRE(update);
    CHECK(update->scope == "SGD");
    CHECK_FALSE(update->outputs[0].parameter.empty());
}

TEST_CASE("backward records point to the forward node they differentiate")
{
    Recorder recorder;
    TinyTraining training;
    training.step(recorder, 0);
    const std::vector<RecordPtr> records = recorder.currentRecords();
    std::size_t linked = 0;
    for (const RecordPtr& r : records) {
        if (r->phase != Phase::Backward || !r->forwardRecord)
            continue;
        RecordPtr forward = recorder.record(*r->forwardRecord);
        REQUIRE(forward);
        CHECK(forward->phase == Phase::Forward);
        CHECK(forward->opSeq == *r->forwardSeq);
        CHECK(forward->op == r->op);
        CHECK(r->fullName == "Gradients/" + forward->fullName);
        // One incoming gradient per forward output, one outgoing per forward input.
        CHECK(r->inputs.size() == forward->outputs.size());
        CHECK(r->outputs.size() == forward->inputs.size());
        for (std::size_t i = 0; i < r->outputs.size(); ++i)
            if (r->outputs[i].defined && r->outputs[i].gradientOf)
                CHECK(*r->outputs[i].gradientOf == forward->inputs[i].id);
        ++linked;
    }
    CHECK(linked >= 5);
}

TEST_CASE("inputs are linked to the records that produced them and parameters are named")
{
    Recorder recorder;
    TinyTraining training;
    training.step(recorder, 0);
    const std::vector<RecordPtr> records = recorder.currentRecords();
    const NodeRecord* relu = findOp(records, "ReLU", Phase::Forward);
    REQUIRE(relu);
    REQUIRE(relu->inputs[0].id.kind == TensorId::Kind::Output);
    RecordPtr producer = recorder.record(relu->inputs[0].id.node);
    REQUIRE(producer);
    CHECK(producer->seq < relu->seq);
    CHECK(relu->inputs[0].stats.mean == producer->outputs[relu->inputs[0].id.output].stats.mean);

    const NodeRecord* matmul = findOp(records, "MatMul", Phase::Forward);
    REQUIRE(matmul);
    CHECK(matmul->inputs[0].id.kind == TensorId::Kind::External); // the data batch
    CHECK(matmul->inputs[1].id.kind == TensorId::Kind::Parameter);
    CHECK(matmul->inputs[1].id.name == matmul->inputs[1].parameter);
    // Parameter gradients produced by backward nodes say whose gradient they are.
    bool parameterGradient = false;
    for (const RecordPtr& r : records)
        for (const TensorRecord& out : r->outputs)
            parameterGradient = parameterGradient
                                || (out.gradientOf && out.gradientOf->kind == TensorId::Kind::Parameter);
    CHECK(parameterGradient);
}

TEST_CASE("every output of the current step has a snapshot equal to the value it had")
{
    Recorder recorder;
    TinyTraining training;
    training.step(recorder, 0);
    const NodeRecord* relu = findOp(recorder.currentRecords(), "ReLU", Phase::Forward);
    REQUIRE(relu);
    std::optional<Tensor> snap = recorder.snapshot(relu->outputs[0].id);
    REQUIRE(snap);
    CHECK(computeStats(*snap).mean == relu->outputs[0].stats.mean);
    // The parameter as first seen in the step: before the update changed it.
    const Parameter& w = training.params()[0];
    std::optional<Tensor> before = recorder.snapshot(TensorId::ofParameter(w.name()));
    REQUIRE(before);
    CHECK(relativeChange(*before, w) > 0.0);
    CHECK(recorder.snapshotBytes() > 0);
    CHECK(recorder.dropped().snapshots == 0);
}

TEST_CASE("a finished step keeps its snapshots until the next step starts, then stats only")
{
    Recorder recorder;
    TinyTraining training;
    training.step(recorder, 0);
    const RecordPtr first = recorder.currentRecords().front();
    CHECK(recorder.snapshot(first->outputs[0].id));
    training.step(recorder, 1);
    CHECK_FALSE(recorder.snapshot(first->outputs[0].id));
    const std::vector<RecordPtr> earlier = recorder.stepRecords(0);
    REQUIRE_FALSE(earlier.empty());
    CHECK(earlier.front()->seq == first->seq);
    CHECK_FALSE(earlier.front()->outputs[0].snapshot.defined());
    CHECK(earlier.front()->outputs[0].stats.count == first->outputs[0].stats.count);
    CHECK(recorder.record(first->seq));
    CHECK(recorder.stepRecords(42).empty());
}

TEST_CASE("step summaries hold the loss and per-parameter gradient norm, weight norm and change")
{
    Recorder recorder;
    TinyTraining training;
    const StepSummary s0 = training.step(recorder, 0);
    training.step(recorder, 1);
    const std::vector<StepSummary> history = recorder.history();
    REQUIRE(history.size() == 2);
    CHECK(history[0].step == 0);
    CHECK(history[1].step == 1);
    CHECK(std::isfinite(history[0].loss));
    CHECK(history[1].loss < history[0].loss);
    REQUIRE(s0.parameters.size() == training.params().size());
    for (const ParameterSummary& p : s0.parameters) {
        CHECK(p.updated);
        CHECK(p.gradientNorm > 0.0);
        CHECK(p.weightNorm > 0.0);
        CHECK(p.weightChange > 0.0);
        CHECK(p.weightChange < 1.0);
    }
}

TEST_CASE("the memory cap drops the oldest snapshots first, even within the step, and says so")
{
    RecorderOptions options;
    options.memoryCapBytes = 400;
    Recorder recorder(options);
    TinyTraining training;
    training.step(recorder, 0);
    CHECK(recorder.snapshotBytes() <= 400);
    const DropReport dropped = recorder.dropped();
    CHECK(dropped.snapshots > 0);
    CHECK(dropped.bytes > 0);
    REQUIRE_FALSE(dropped.records.empty());
    const std::vector<RecordPtr> records = recorder.currentRecords();
    // The oldest record lost its snapshot, the newest kept its own.
    CHECK(dropped.records.front() == records.front()->seq);
    CHECK(records.front()->outputs[0].snapshotDropped);
    CHECK_FALSE(recorder.snapshot(records.front()->outputs[0].id));
    CHECK(recorder.snapshot(records.back()->outputs[0].id));
    CHECK(recorder.history().back().dropped.snapshots == dropped.snapshots);
}

TEST_CASE("lowering the cap drops at once and a cap of zero keeps stats only")
{
    Recorder recorder;
    TinyTraining training;
    training.step(recorder, 0);
    const std::size_t before = recorder.snapshotBytes();
    recorder.setMemoryCap(0);
    CHECK(recorder.snapshotBytes() == 0);
    CHECK(recorder.dropped().bytes == before);
    training.step(recorder, 1);
    CHECK(recorder.snapshotBytes() == 0);
    for (const RecordPtr& r : recorder.currentRecords())
        for (const TensorRecord& out : r->outputs)
            CHECK_FALSE(out.snapshot.defined());
}

TEST_CASE("with snapshots off nothing is copied and stats are still recorded")
{
    RecorderOptions options;
    options.snapshots = false;
    Recorder recorder(options);
    TinyTraining training;
    training.step(recorder, 0);
    CHECK(recorder.snapshotBytes() == 0);
    CHECK(recorder.dropped().snapshots == 0);
    CHECK(recorder.currentRecords().front()->outputs[0].stats.count > 0);
}

TEST_CASE("a node whose kernel threw leaves no record and does not disturb the next one")
{
    Recorder recorder;
    recorder.stepStarted(0);
    const Tensor a = Tensor::zeros(Shape{2});
    const std::vector<Tensor> outs{Tensor::full(Shape{2}, 1.0)};
    NodeEvent thrown{5, Phase::Forward, &kNeg, nullptr, nullptr, nullptr, std::span<const Tensor>(&a, 1), {}};
    recorder.nodeStarted(thrown);
    NodeEvent next{6, Phase::Forward, &kNeg, nullptr, nullptr, nullptr, std::span<const Tensor>(&a, 1), {}};
    recorder.nodeStarted(next);
    CHECK(recorder.pending()->opSeq == 6);
    next.outputs = outs;
    recorder.nodeFinished(next);
    const std::vector<RecordPtr> records = recorder.currentRecords();
    REQUIRE(records.size() == 1);
    CHECK(records[0]->opSeq == 6);
    CHECK(records[0]->op == "Neg");
    CHECK(records[0]->outputs[0].stats.mean == 1.0);
    // A finish event nobody started (the recorder was attached mid-node) is ignored.
    NodeEvent stray{9, Phase::Forward, &kNeg, nullptr, nullptr, nullptr, {}, outs};
    recorder.nodeFinished(stray);
    CHECK(recorder.currentRecords().size() == 1);
}

TEST_CASE("a tensor made after another died is not mistaken for it")
{
    Recorder recorder;
    recorder.stepStarted(0);
    ObserverGuard attach(&recorder);
    std::vector<TensorId> ids;
    for (int i = 0; i < 8; ++i) {
        Tensor fresh = Tensor::full(Shape{4}, i);
        Tensor y = neg(fresh);
        ids.push_back(recorder.lastRecord()->inputs[0].id);
    }
    for (std::size_t i = 1; i < ids.size(); ++i)
        CHECK(ids[i] != ids[i - 1]);
}

TEST_CASE("nodes carry the source location the loader provides and the scope")
{
    auto& ctx = executionContext();
    auto file = std::make_shared<const std::string>("/home/u/main.py");
    ctx.locationProvider = [file] { return SourceLocation{file, 27, 9, 0}; };
    Recorder recorder;
    {
        ObserverGuard attach(&recorder);
        ScopeGuard scope("LeNet5");
        ScopeGuard inner("conv1");
        exp(Tensor::zeros(Shape{2}));
    }
    ctx.locationProvider = nullptr;
    RecordPtr r = recorder.lastRecord();
    REQUIRE(r);
    CHECK(r->fullName == "LeNet5/conv1/Exp");
    CHECK(r->location.line == 27);
    CHECK(r->location.column == 9);
    CHECK(r->where() == "LeNet5/conv1/Exp (main.py:27)");
    CHECK(r->step == 0);
}

TEST_CASE("queries from another thread between events see consistent records")
{
    Recorder recorder;
    TinyTraining training;
    std::atomic<bool> done{false};
    std::size_t reads = 0;
    std::thread reader([&] {
        while (!done) {
            for (const RecordPtr& r : recorder.currentRecords())
                reads += r->outputs.size() > 0 ? 1 : 0;
            recorder.history();
        }
    });
    for (int k = 0; k < 3; ++k)
        training.step(recorder, k);
    done = true;
    reader.join();
    CHECK(recorder.history().size() == 3);
}

TEST_CASE("firstRecordWhere finds the first node of the step that satisfies a predicate")
{
    Recorder recorder;
    TinyTraining training;
    training.step(recorder, 0);
    RecordPtr first = recorder.firstRecordWhere([](const NodeRecord& r) { return r.phase == Phase::Backward; });
    REQUIRE(first);
    CHECK(first->phase == Phase::Backward);
    CHECK_FALSE(recorder.firstRecordWhere([](const NodeRecord&) { return false; }));
}

TEST_CASE("clear forgets every step and restarts numbering")
{
    Recorder recorder;
    TinyTraining training;
    training.step(recorder, 0);
    recorder.clear();
    CHECK(recorder.currentRecords().empty());
    CHECK(recorder.history().empty());
    training.step(recorder, 0);
    CHECK(recorder.currentRecords().front()->seq == 1);
}
