// Tests of the execution observer (core/autodiff/observer.h): what a debugger sees of each node.
// SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "autodiff/tape.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

using namespace gradstep;

namespace {
struct Recorded {
    bool finished;
    std::uint64_t seq;
    Phase phase;
    std::string op;
    std::string scope;
    std::size_t inputs, outputs;
    bool hasNode;
};

struct RecordingObserver : ExecutionObserver {
    std::vector<Recorded> events;
    void nodeStarted(const NodeEvent& e) override { add(false, e); }
    void nodeFinished(const NodeEvent& e) override { add(true, e); }
    void add(bool finished, const NodeEvent& e)
    {
        events.push_back({finished, e.seq, e.phase, e.op ? std::string(e.op->name) : std::string("custom"),
                          e.scope ? *e.scope : std::string(), e.inputs.size(), e.outputs.size(), e.node != nullptr});
    }
};
} // namespace

TEST_CASE("the observer sees every forward op and every backward node, in order, with its phase and scope")
{
    RecordingObserver observer;
    ObserverGuard attach(&observer);
    Function f = [](const std::vector<Value>& a) -> Value {
        ScopeGuard scope("Net");
        ScopeGuard inner("fc");
        return reduceSum(mul(a[0].tensor(), a[0].tensor()));
    };
    Tensor x = Tensor::fromVector<float>({2}, {1, 2});
    Tensor g = grad(f)({x}).tensor();
    CHECK(g.at(1) == 4.0);

    std::vector<std::string> forward, backwardOps;
    for (const Recorded& r : observer.events) {
        if (!r.finished)
            continue;
        (r.phase == Phase::Forward ? forward : backwardOps).push_back(r.op);
        if (r.phase == Phase::Forward) {
            CHECK(r.scope == "Net/fc");
            CHECK(r.hasNode);
            CHECK(r.outputs == 1);
        }
    }
    CHECK(forward == std::vector<std::string>{"Mul", "ReduceSum"});
    // Reverse order; the primitive ops inside each rule emit no events of their own.
    CHECK(backwardOps == std::vector<std::string>{"ReduceSum", "Mul", "custom"});
    // Every started event is followed by its finished event with the same sequence number.
    for (std::size_t i = 0; i + 1 < observer.events.size(); i += 2) {
        CHECK_FALSE(observer.events[i].finished);
        CHECK(observer.events[i + 1].finished);
        CHECK(observer.events[i].seq == observer.events[i + 1].seq);
    }
}

TEST_CASE("nodes carry the scope path, phase and the location the loader provides")
{
    auto& ctx = executionContext();
    auto file = std::make_shared<const std::string>("train.py");
    ctx.locationProvider = [file] { return SourceLocation{file, 12, 5, 0}; };
    Tape tape;
    Tensor y;
    {
        TapeGuard guard(tape);
        ScopeGuard scope("LeNet5");
        ScopeGuard conv("conv1");
        Tensor x = Tensor::fromVector<float>({2}, {1, 2});
        Tensor xs[] = {x};
        Tensor outs[] = {x.detach()};
        recordCustom("Input0", xs, outs, [](const BackwardContext&, std::span<const Tensor> g) {
            return TensorList{Tensor(g[0])};
        });
        y = mul(outs[0], outs[0]);
    }
    ctx.locationProvider = nullptr;
    REQUIRE(tape.size() == 2);
    const Node& node = *tape.nodes()[1];
    CHECK(node.label() == "LeNet5/conv1/Mul");
    CHECK(node.location.toString() == "train.py:12:5");
    CHECK(node.phase == Phase::Forward);
    CHECK(node.seq > tape.nodes()[0]->seq);
    CHECK(tape.dump().find("LeNet5/conv1/Mul(#") != std::string::npos);
}

TEST_CASE("nothing is recorded outside a grad call or under no-grad")
{
    Tensor x = Tensor::fromVector<float>({2}, {1, 2});
    Tensor y = mul(x, x);
    CHECK_FALSE(y.requiresGrad());
    Tape tape;
    TapeGuard guard(tape);
    NoGradGuard noGrad;
    Tensor z = mul(x, x);
    CHECK(tape.size() == 0);
}
