// Step events (core/api/grad_events.h, core/optim/optimizer.cpp): gradient-function calls and
// optimizer updates reach the observer in order, with correct payloads, and nested calls carry
// their depth. SPDX-License-Identifier: MIT
#include "tests/core/api/api_test_util.h"

#include "api/grad_events.h"
#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "optim/sgd.h"

#include <string>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

struct CallRecord {
    std::string kind; ///< "grad+", "grad-", "update+", "update-"
    std::uint64_t index = 0;
    int depth = 0;
    bool completed = false;
    bool hasValue = false;
    Value value;
    std::vector<std::int64_t> positions;
    std::vector<std::string> names;
    TensorList inputGrads;
    TensorList weightGrads;
    std::int64_t step = 0;
    double learningRate = 0.0;
    std::vector<double> parameterValues; ///< update events: parameters' first elements
};

class StepRecorder : public ExecutionObserver {
public:
    void nodeStarted(const NodeEvent&) override {}
    void nodeFinished(const NodeEvent& event) override
    {
        if (event.phase == Phase::Update)
            ++updateOps;
    }
    void gradCallStarted(const GradCallEvent& e) override { log.push_back(record("grad+", e)); }
    void gradCallFinished(const GradCallEvent& e) override { log.push_back(record("grad-", e)); }
    void updateStarted(const UpdateEvent& e) override { log.push_back(record("update+", e)); }
    void updateFinished(const UpdateEvent& e) override { log.push_back(record("update-", e)); }

    std::vector<std::string> kinds() const
    {
        std::vector<std::string> out;
        for (const CallRecord& r : log)
            out.push_back(r.kind);
        return out;
    }

    std::vector<CallRecord> log;
    int updateOps = 0;

private:
    static CallRecord record(const char* kind, const GradCallEvent& e)
    {
        CallRecord r;
        r.kind = kind;
        r.index = e.index;
        r.depth = e.depth;
        r.completed = e.completed;
        r.hasValue = e.value != nullptr;
        if (e.value)
            r.value = *e.value;
        r.positions.assign(e.positions.begin(), e.positions.end());
        for (const Parameter& p : e.weights)
            r.names.push_back(p.name());
        r.inputGrads.assign(e.inputGrads.begin(), e.inputGrads.end());
        r.weightGrads.assign(e.weightGrads.begin(), e.weightGrads.end());
        return r;
    }

    static CallRecord record(const char* kind, const UpdateEvent& e)
    {
        CallRecord r;
        r.kind = kind;
        r.step = e.step;
        r.learningRate = e.learningRate;
        REQUIRE(e.optimizer);
        CHECK(*e.optimizer == "SGD");
        for (const Parameter& p : e.parameters) {
            r.names.push_back(p.name());
            r.parameterValues.push_back(p.at(0));
        }
        r.weightGrads.assign(e.gradients.begin(), e.gradients.end());
        return r;
    }
};

// loss = sum((w * x + b - y)^2) over two samples; dloss/dw = sum(2 r x), dloss/db = sum(2 r).
struct Linear {
    Parameter w{f64({1}, {0.5}), "w"};
    Parameter b{f64({1}, {0.0}), "b"};
    Function loss() const
    {
        return [w = w, b = b](const Args& a) -> Value {
            Tensor r = a[0].tensor() * w + b - a[1].tensor();
            return reduceSum(r * r);
        };
    }
};

} // namespace

TEST_CASE("value_and_grad plus SGD reports each step's call, gradients and update in order")
{
    Linear net;
    SGD sgd({net.w, net.b}, 0.1);
    GradFunction step = valueAndGrad(net.loss(), None, std::vector<Parameter>{net.w, net.b});
    const Tensor x = f64({2}, {1.0, 2.0});
    const Tensor y = f64({2}, {1.0, 3.0});
    StepRecorder recorder;
    {
        ObserverGuard guard(&recorder);
        for (int i = 0; i < 2; ++i) {
            Value out = step({x, y});
            const Value& grads = out[1];
            sgd({grads[0].tensor(), grads[1].tensor()});
        }
    }
    using Kinds = std::vector<std::string>;
    REQUIRE(recorder.kinds()
            == Kinds{"grad+", "grad-", "update+", "update-", "grad+", "grad-", "update+", "update-"});
    const CallRecord& started = recorder.log[0];
    const CallRecord& finished = recorder.log[1];
    CHECK(started.index > 0); // counted per thread, so earlier tests' calls come first
    CHECK(started.depth == 0);
    CHECK_FALSE(started.hasValue);
    CHECK(started.weightGrads.empty());
    CHECK(started.names == std::vector<std::string>{"w", "b"});
    CHECK(started.positions.empty());

    // residuals r = (0.5 - 1, 1 - 3) = (-0.5, -2): loss = 4.25, dw = 2(-0.5 - 4) = -9, db = -5
    CHECK(finished.index == started.index);
    CHECK(finished.completed);
    REQUIRE(finished.hasValue);
    requireTensor(finished.value, {}, {4.25}, 1e-12);
    REQUIRE(finished.weightGrads.size() == 2);
    requireTensor(Value(finished.weightGrads[0]), {1}, {-9.0}, 1e-12);
    requireTensor(Value(finished.weightGrads[1]), {1}, {-5.0}, 1e-12);
    CHECK(finished.inputGrads.empty());

    const CallRecord& updateStarted = recorder.log[2];
    const CallRecord& updateFinished = recorder.log[3];
    CHECK(updateStarted.step == 1);
    CHECK(updateStarted.learningRate == 0.1);
    CHECK(updateStarted.names == std::vector<std::string>{"w", "b"});
    CHECK(updateStarted.parameterValues == std::vector<double>{0.5, 0.0});
    CHECK(updateFinished.step == 1);
    CHECK(updateFinished.parameterValues[0] == Approx(1.4).epsilon(1e-12));
    CHECK(updateFinished.parameterValues[1] == Approx(0.5).epsilon(1e-12));
    REQUIRE(updateFinished.weightGrads.size() == 2);
    CHECK(updateFinished.weightGrads[0].at(0) == -9.0);

    CHECK(recorder.log[4].index == started.index + 1);
    CHECK(recorder.log[6].step == 2);
    CHECK(recorder.updateOps > 0);
}

TEST_CASE("grad and GradOperation report calls without a value, with the input gradients")
{
    Function square = [](const Args& a) -> Value { return a[0].tensor() * a[0].tensor(); };
    StepRecorder recorder;
    ObserverGuard guard(&recorder);
    grad(square)({f64({2}, {1.0, -3.0})});
    GradOperation(true)(square)({f64({1}, {2.0})});
    REQUIRE(recorder.log.size() == 4);
    const CallRecord& g = recorder.log[1];
    CHECK_FALSE(g.hasValue);
    CHECK(g.positions == std::vector<std::int64_t>{0});
    REQUIRE(g.inputGrads.size() == 1);
    requireTensor(Value(g.inputGrads[0]), {2}, {2.0, -6.0}, 1e-12);
    const CallRecord& op = recorder.log[3];
    CHECK(op.index == g.index + 1);
    CHECK_FALSE(op.hasValue);
    REQUIRE(op.inputGrads.size() == 1);
    requireTensor(Value(op.inputGrads[0]), {1}, {4.0}, 1e-12);
}

TEST_CASE("grad of grad reports the inner call at depth 1 inside the outer step")
{
    Function cube = [](const Args& a) -> Value {
        return a[0].tensor() * a[0].tensor() * a[0].tensor();
    };
    StepRecorder recorder;
    ObserverGuard guard(&recorder);
    CHECK(gradCallDepth() == 0);
    requireTensor(grad(grad(cube))({f64({1}, {2.0})}), {1}, {12.0}, 1e-12);
    CHECK(gradCallDepth() == 0);
    REQUIRE(recorder.kinds() == std::vector<std::string>{"grad+", "grad+", "grad-", "grad-"});
    CHECK(recorder.log[0].depth == 0);
    CHECK(recorder.log[1].depth == 1);
    CHECK(recorder.log[2].depth == 1);
    CHECK(recorder.log[3].depth == 0);
    CHECK(recorder.log[1].index == recorder.log[0].index + 1);
    requireTensor(Value(recorder.log[2].inputGrads[0]), {1}, {12.0}, 1e-12);
    requireTensor(Value(recorder.log[3].inputGrads[0]), {1}, {12.0}, 1e-12);
}

TEST_CASE("a gradient call that throws still reports its end, as not completed")
{
    Function single = [](const Args& a) -> Value { return a[0].tensor(); };
    StepRecorder recorder;
    ObserverGuard guard(&recorder);
    CHECK_THROWS_AS(grad(single, 0, None, true)({f64({1}, {1.0})}), ValueError);
    Function failing = [](const Args&) -> Value { throw ValueError("the function failed"); };
    CHECK_THROWS_AS(grad(failing, 0)({f64({1}, {1.0})}), ValueError);
    REQUIRE(recorder.kinds() == std::vector<std::string>{"grad+", "grad-", "grad+", "grad-"});
    CHECK_FALSE(recorder.log[1].completed);
    CHECK_FALSE(recorder.log[3].completed);
    CHECK(gradCallDepth() == 0);
}

TEST_CASE("GradOperation(get_all=True) skips inputs that are not tensors")
{
    Function f = [](const Args& a) -> Value { return a[0].tensor() * a[2].tensor(); };
    Value g = GradOperation(true)(f)({f64({1}, {2.0}), Value(), f64({1}, {5.0})});
    requireTuple(g, 2);
    requireTensor(g[0], {1}, {5.0}, 1e-12);
    requireTensor(g[1], {1}, {2.0}, 1e-12);
}
