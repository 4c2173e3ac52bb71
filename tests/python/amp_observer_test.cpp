// What the debugger sees of mixed precision: TrainOneStepWithLossScaleCell reports each step's
// loss scale and overflow decision (ExecutionObserver::lossScaleReported) and an overflowing step
// sends no update events; a to_float(float16) Cell's ops record the Casts of their float32
// inputs in its scope, with float16 operands. SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include "autodiff/observer.h"
#include "ops/op_def.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace gradstep;
using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

class AmpRecorder : public ExecutionObserver {
public:
    void nodeStarted(const NodeEvent&) override {}
    void nodeFinished(const NodeEvent& event) override
    {
        if (event.phase != Phase::Forward || !event.op || !event.scope)
            return;
        std::string line = *event.scope + "/" + std::string(event.op->name);
        for (const Tensor& t : event.inputs)
            line += " " + std::string(dtypeName(t.dtype()));
        forward.push_back(line);
    }
    void updateFinished(const UpdateEvent&) override { ++updates; }
    void lossScaleReported(const LossScaleEvent& event) override { scales.push_back(event); }

    std::vector<std::string> forward;
    std::vector<LossScaleEvent> scales;
    int updates = 0;
};

RunResult runObserved(const std::string& source, ExecutionObserver& observer)
{
    TempDir dir;
    ensureHost();
    RunRequest request;
    request.script = dir.write("main.py", source);
    request.timeout = std::chrono::seconds(30);
    request.observer = &observer;
    ScriptRunner runner;
    return runner.run(std::move(request));
}

bool contains(const std::vector<std::string>& lines, const std::string& line)
{
    for (const std::string& l : lines)
        if (l == line)
            return true;
    return false;
}

} // namespace

TEST_CASE("a loss-scaled step reports its scale and overflow, and an overflowing step no update")
{
    AmpRecorder recorder;
    const RunResult result = runObserved(R"PY(
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor

class Linear(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.full((2, 1), 0.5, np.float32)), name="w")
    def construct(self, x):
        return ops.matmul(x, self.w)

net = Linear().to_float(ms.float16)
step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1),
                                        scale_sense=nn.DynamicLossScaleUpdateCell(1024.0, 2, 2))
target = Tensor(np.zeros((1, 1), np.float32))
step(Tensor(np.array([[300.0, 300.0]], np.float32)), target)   # overflows in float16
for _ in range(2):
    step(Tensor(np.array([[1.0, 2.0]], np.float32)), target)
)PY",
                                         recorder);
    INFO((result.diagnostic ? result.diagnostic->format() : std::string()));
    REQUIRE(result.status == RunStatus::Ok);
    REQUIRE(recorder.scales.size() == 3);
    CHECK(recorder.scales[0].lossScale == 1024.0);
    CHECK(recorder.scales[0].nextLossScale == 512.0);
    CHECK(recorder.scales[0].overflow);
    CHECK(recorder.scales[0].updateSkipped);
    CHECK(recorder.scales[1].lossScale == 512.0);
    CHECK(recorder.scales[1].nextLossScale == 512.0);
    CHECK_FALSE(recorder.scales[1].overflow);
    CHECK_FALSE(recorder.scales[1].updateSkipped);
    CHECK(recorder.scales[2].nextLossScale == 1024.0); // two good steps since the overflow
    CHECK(recorder.updates == 2);                      // the overflowing step updated nothing
    std::string lines;
    for (const std::string& l : recorder.forward)
        lines += l + "\n";
    INFO(lines);
    // The float16 Cell's MatMul took a float16 copy of the float32 weight, cast in its scope (the
    // train cell's scope is its core class's name, as for every TrainOneStepCell subclass).
    CHECK(contains(recorder.forward, "TrainOneStepCell/network/_backbone/Cast Float32"));
    CHECK(contains(recorder.forward, "TrainOneStepCell/network/_backbone/MatMul Float16 Float16"));
}
