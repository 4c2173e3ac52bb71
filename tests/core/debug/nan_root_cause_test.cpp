// Tests of the NaN root-cause search (core/debug/nan_root_cause.h) on injected faults, each in a
// real forward and backward pass recorded by the recorder. SPDX-License-Identifier: MIT
#include "debug/nan_root_cause.h"
#include "ops/ops.h"
#include "tests/core/debug/debug_test_util.h"

#include <catch2/catch.hpp>

#include <limits>

using namespace gradstep;
using namespace gradstep::debug;
using namespace gradstep::debug::testing;

namespace {

/// grad of sum(f(x) * y) with the recorder attached; returns the cause found in the step.
std::optional<NanRootCause> causeOf(const std::function<Tensor(const Tensor&)>& f, const Tensor& x,
                                    RecorderOptions options = {})
{
    Recorder recorder(options);
    recorder.stepStarted(0);
    {
        ObserverGuard attach(&recorder);
        Function fn = [&](const std::vector<Value>& a) -> Value {
            ScopeGuard scope("Net");
            return reduceSum(mul(f(a[0].tensor()), Tensor::full(x.shape(), 2.0)));
        };
        grad(fn)({x});
    }
    const std::vector<RecordPtr> records = recorder.currentRecords();
    return findNanRootCause(records);
}

Tensor values(std::vector<float> v) { return Tensor::fromVector<float>(Shape{static_cast<std::int64_t>(v.size())}, v); }

} // namespace

TEST_CASE("log of zero is traced to the Log node in the forward pass")
{
    const auto cause = causeOf([](const Tensor& x) { return log(x); }, values({0, 1, 2}));
    REQUIRE(cause);
    CHECK(cause->kind == NanRootCause::Kind::ProducedByNode);
    CHECK(cause->record->op == "Log");
    CHECK(cause->record->phase == Phase::Forward);
    CHECK(cause->record->inputs[0].stats.min == 0.0);
    CHECK(cause->message.find("NaN/Inf first produced by Log at Net/Log, forward phase, step 0: output 0 "
                              "has 0 NaN, 0 +Inf, 1 -Inf; its inputs were finite: input 0")
          == 0);
}

TEST_CASE("zero divided by zero is traced to the division")
{
    const auto cause = causeOf([](const Tensor& x) { return div(x, x); }, values({0, 1}));
    REQUIRE(cause);
    CHECK(cause->record->op == "RealDiv");
    CHECK(cause->record->phase == Phase::Forward);
    CHECK(cause->record->outputs[0].stats.nanCount == 1);
}

TEST_CASE("the square root of a negative number is traced to Sqrt")
{
    const auto cause = causeOf([](const Tensor& x) { return sqrt(sub(x, Tensor::full(Shape{}, 3.0))); },
                               values({1, 4}));
    REQUIRE(cause);
    CHECK(cause->record->op == "Sqrt");
    CHECK(cause->record->inputs[0].stats.min == -2.0);
}

TEST_CASE("exp overflow is traced to Exp and not to the multiply that consumes its Inf")
{
    const auto cause = causeOf([](const Tensor& x) { return exp(x); }, values({1, 100}));
    REQUIRE(cause);
    CHECK(cause->record->op == "Exp");
    CHECK(cause->record->outputs[0].stats.posInfCount == 1);
}

TEST_CASE("a NaN that appears only in the backward pass is traced to the backward node")
{
    // sqrt(0) = 0 is finite; its derivative 1 / (2 sqrt(0)) is not.
    const auto cause = causeOf([](const Tensor& x) { return sqrt(x); }, values({0, 4}));
    REQUIRE(cause);
    CHECK(cause->kind == NanRootCause::Kind::ProducedByNode);
    CHECK(cause->record->op == "Sqrt");
    CHECK(cause->record->phase == Phase::Backward);
    CHECK(cause->record->allInputsFinite());
    CHECK(cause->message.find("backward of Net/Sqrt, backward phase") != std::string::npos);
}

TEST_CASE("the root cause is found from stats alone when every snapshot was dropped")
{
    RecorderOptions options;
    options.memoryCapBytes = 0;
    const auto cause = causeOf([](const Tensor& x) { return log(x); }, values({0, 1}), options);
    REQUIRE(cause);
    CHECK(cause->record->op == "Log");
    CHECK_FALSE(cause->record->outputs[0].snapshot.defined());
}

TEST_CASE("a NaN already present in the data is reported as entering through an input")
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const auto cause = causeOf([](const Tensor& x) { return exp(x); }, values({1, nan}));
    REQUIRE(cause);
    CHECK(cause->kind == NanRootCause::Kind::NonFiniteInput);
    CHECK(cause->record->op == "Exp");
    CHECK(cause->input == 0u);
    CHECK(cause->record->inputs[0].id.kind == TensorId::Kind::External);
    CHECK(cause->message.find("it came from a tensor no recorded node produced") != std::string::npos);
}

TEST_CASE("an exploding learning rate is traced to the optimizer update")
{
    Recorder recorder;
    TinyTraining training(1e38, 100.0);
    std::optional<NanRootCause> cause;
    for (int k = 0; k < 3 && !cause; ++k) {
        training.step(recorder, k);
        const std::vector<RecordPtr> records = recorder.currentRecords();
        cause = findNanRootCause(records);
    }
    REQUIRE(cause);
    CHECK(cause->kind == NanRootCause::Kind::ProducedByNode);
    CHECK(cause->record->op == "ApplyGradientDescent");
    CHECK(cause->record->phase == Phase::Update);
    CHECK(cause->record->step == 0);
}

TEST_CASE("a clean step has no root cause")
{
    CHECK_FALSE(causeOf([](const Tensor& x) { return exp(x); }, values({1, 2})));
}
