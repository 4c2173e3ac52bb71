// Issue 16: training steps compiled whole (Note [Gradients inside compiled code] in
// core/python/jit/jit_gradient.cpp, Note [Side effects in compiled code] in jit_state.cpp). Each
// script runs with the mode override set to Graph and to PyNative: the printed losses and
// parameters must be the same text, the recorded gradients the same, and in graph mode the step
// must be ONE compiled graph holding forward, backward and update nodes, with no body left to
// Python (mindspore._jit_stats()["fallbacks"] == 0).
// SPDX-License-Identifier: MIT
#include "tests/python/jit_test_support.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

const std::string kNet = kPrelude + R"PY(
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.fc2 = nn.Dense(8, 3)
    def construct(self, x):
        return self.fc2(ops.tanh(self.fc1(x)))

rng = np.random.RandomState(0)
data = Tensor(rng.randn(5, 4).astype(np.float32))
label = Tensor(np.array([0, 1, 2, 1, 0], np.int32))
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

def show(net):
    print("bias", net.fc2.bias.asnumpy().tolist())
    print("weight", float(np.abs(net.fc1.weight.asnumpy().astype(np.float64)).sum()))
)PY";

struct BothModes {
    ModeRun graph, eager;
};

// Same printed text and recorded gradients in both modes. A compiled run reports its top-level
// gradient calls only (nested ones have no step of their own): `nested` skips the comparison.
void runBoth(const std::string& source, BothModes& runs, bool nested = false)
{
    TempDir dir;
    const auto script = dir.write("main.py", source);
    runInMode(script, ModeOverride::Graph, runs.graph);
    runInMode(script, ModeOverride::PyNative, runs.eager);
    INFO(runs.graph.outcome.diagnostic() << runs.eager.outcome.diagnostic());
    REQUIRE(runs.graph.outcome.ok());
    REQUIRE(runs.eager.outcome.ok());
    CHECK(runs.graph.outcome.out == runs.eager.outcome.out);
    CHECK(runs.eager.recorder.compiles.empty());
    if (nested)
        return;
    const auto& g = runs.graph.recorder.grads;
    const auto& e = runs.eager.recorder.grads;
    REQUIRE(g.size() == e.size());
    for (std::size_t s = 0; s < g.size(); ++s) {
        REQUIRE(g[s].size() == e[s].size());
        for (std::size_t k = 0; k < g[s].size(); ++k)
            CHECK(relativeError(g[s][k], e[s][k]) <= 1e-6);
    }
}

// The one compiled graph of a whole step: forward, backward and update nodes together.
void checkWholeStep(const ModeRun& graph)
{
    REQUIRE(graph.recorder.compiles.size() == 1);
    const Compile& c = graph.recorder.compiles[0];
    INFO(c.text);
    CHECK(c.backwardNodes > 0);
    CHECK(c.updateNodes > 0);
    CHECK(c.nodes > c.backwardNodes + c.updateNodes); // and the forward nodes
}

} // namespace

TEST_CASE("the canonical @jit step (value_and_grad with has_aux over optimizer.parameters, "
          "Momentum) compiles whole and trains as PyNative does",
          "[python][jit][jitstep]")
{
    BothModes runs;
    runBoth(kNet + R"PY(
ms.set_seed(1)
net = Net()
optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.1, momentum=0.9)
def forward_fn(data, label):
    logits = net(data)
    return loss_fn(logits, label), logits
grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)
@ms.jit
def train_step(data, label):
    (loss, _), grads = grad_fn(data, label)
    optimizer(grads)
    return loss
losses = [float(train_step(data, label)) for _ in range(4)]
print(losses)
assert losses[3] < losses[0]
show(net)
assert optimizer.global_step == 4, optimizer.global_step
assert ms._jit_stats()["fallbacks"] == 0, ms._jit_stats()
)PY", runs);
    checkWholeStep(runs.graph);
    CHECK(runs.graph.recorder.grads.size() == 4); // each run reports its gradient call
}

TEST_CASE("a graph-mode Cell calling GradOperation in construct with ops.depend and Adam "
          "compiles whole",
          "[python][jit][jitstep]")
{
    BothModes runs;
    runBoth(kNet + R"PY(
ms.set_context(mode=ms.GRAPH_MODE)
ms.set_seed(1)
net = Net()
class Step(nn.Cell):
    def __init__(self, network, optimizer):
        super().__init__()
        self.network = network
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.grad = ops.GradOperation(get_by_list=True)
    def construct(self, x, y):
        loss = self.network(x, y)
        grads = self.grad(self.network, self.weights)(x, y)
        return ops.depend(loss, self.optimizer(grads))
step = Step(nn.WithLossCell(net, loss_fn), nn.Adam(net.trainable_params(), learning_rate=0.01))
print([float(step(data, label)) for _ in range(3)])
show(net)
assert ms._jit_stats()["fallbacks"] == 0, ms._jit_stats()
)PY", runs);
    checkWholeStep(runs.graph);
}

TEST_CASE("TrainOneStepCell compiles whole in GRAPH_MODE with SGD momentum's first-step flag",
          "[python][jit][jitstep]")
{
    BothModes runs;
    runBoth(kNet + R"PY(
ms.set_context(mode=ms.GRAPH_MODE)
ms.set_seed(2)
net = Net()
opt = nn.SGD(net.trainable_params(), 0.1, momentum=0.9)
train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
print([float(train(data, label)) for _ in range(3)])
show(net)
assert ms._jit_stats()["fallbacks"] == 0, ms._jit_stats()
)PY", runs);
    checkWholeStep(runs.graph);
    CHECK(runs.graph.recorder.grads.size() == 3);
}

TEST_CASE("higher-order gradients inside @jit: grad of grad, grad inside a differentiated "
          "function, sens_param and get_grad",
          "[python][jit][jitstep]")
{
    BothModes runs;
    runBoth(kPrelude + R"PY(
def f(x):
    return (x ** 3).sum() + ops.sin(x).sum()
@ms.jit
def second(x):
    return ms.grad(ms.grad(f))(x)
def g(x):
    return (ms.grad(f)(x) * x).sum()
@ms.jit
def nested(x):
    return ms.value_and_grad(g)(x)
@ms.jit
def with_sens(x, s):
    return ops.GradOperation(sens_param=True)(f)(x, s)
w = ms.Parameter(Tensor(np.array([0.5, 2.0], np.float32)), name="w")
def h(x):
    return (x * w * w).sum()
@ms.jit
def by_id(x):
    grads = ms.grad(h, 0, w, return_ids=True)(x)
    return ms.get_grad(grads, w), ms.get_grad(grads, 0)
x = Tensor(np.array([0.5, -1.0, 2.0], np.float32))
d2 = second(x)
assert np.allclose(d2.asnumpy(), 6 * x.asnumpy() - np.sin(x.asnumpy()), rtol=1e-5), d2
print(d2.asnumpy().tolist())
print([t.asnumpy().tolist() for t in nested(x)])
print(with_sens(x, Tensor(np.float32(2.0))).asnumpy().tolist())
print([t.asnumpy().tolist() for t in by_id(Tensor(np.array([3.0, 1.0], np.float32)))])
assert ms._jit_stats()["fallbacks"] == 0, ms._jit_stats()
)PY", runs, true);
    CHECK(runs.graph.recorder.compiles.size() == 4);
    CHECK(runs.graph.recorder.grads.size() == 4); // one top-level call per compiled function
}

TEST_CASE("Parameter writes in @jit follow program order: reads before a write see the old "
          "value, reads after it the new one",
          "[python][jit][jitstep]")
{
    BothModes runs;
    runBoth(kPrelude + R"PY(
p = ms.Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="p")
q = ms.Parameter(Tensor(np.array([0.0, 0.0], np.float32)), name="q")
@ms.jit
def update(x):
    before = p * 1.0
    ops.assign_add(p, x)
    after = p * 1.0
    ops.assign(p, after * 2.0)
    ops.assign_sub(q, p)
    return ops.depend(before, q), after
for _ in range(2):
    b, a = update(Tensor(np.array([1.0, 1.0], np.float32)))
    print(b.asnumpy().tolist(), a.asnumpy().tolist(), p.asnumpy().tolist(), q.asnumpy().tolist())
assert p.asnumpy().tolist() == [10.0, 14.0] and q.asnumpy().tolist() == [-14.0, -20.0]
assert ms._jit_stats()["fallbacks"] == 0, ms._jit_stats()
)PY", runs);
    REQUIRE(runs.graph.recorder.compiles.size() == 1);
    CHECK(runs.graph.outcome.out.find("[1.0, 2.0] [2.0, 3.0] [4.0, 6.0]") != std::string::npos);
}

TEST_CASE("a gradient call inside an if on a tensor still runs the body in Python and is "
          "counted as a fallback",
          "[python][jit][jitstep]")
{
    ModeRun run = runGraphSource(kPrelude + R"PY(
def f(x):
    return (x * x).sum()
@ms.jit
def pick(x):
    if x.sum() > 0:
        y = ms.grad(f)(x)
    else:
        y = x
    return y
out = pick(Tensor(np.array([1.0, 2.0], np.float32)))
assert out.asnumpy().tolist() == [2.0, 4.0], out
assert ms._jit_stats()["fallbacks"] == 1, ms._jit_stats()
)PY");
    INFO(run.outcome.diagnostic());
    REQUIRE(run.outcome.ok());
}

TEST_CASE("Model.train's network compiles whole in GRAPH_MODE with a core optimizer",
          "[python][jit][jitstep]")
{
    BothModes runs;
    runBoth(kPrelude + R"PY(
import mindspore.dataset as ds
from mindspore.train import Model
ms.set_context(mode=ms.GRAPH_MODE)
ms.set_seed(1)
rng = np.random.RandomState(0)
x = rng.randn(40, 4).astype(np.float32)
y = (rng.rand(40) * 3).astype(np.int32)
data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)
net = nn.SequentialCell([nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 3)])
loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
model = Model(net, loss, nn.Momentum(net.trainable_params(), 0.1, 0.9))
model.train(2, data)
print(net[0].weight.asnumpy().tolist())
assert ms._jit_stats()["fallbacks"] == 0, ms._jit_stats()
)PY", runs);
    checkWholeStep(runs.graph);
    CHECK(runs.graph.recorder.grads.size() == Recorder::kSteps); // 10 steps, the first 8 kept
}
