// Graph mode from Python source (core/python/jit_*.cpp): the samples give the same printed
// losses and the same gradients (collected from gradCallFinished events) with the mode override
// set to Graph and to PyNative; tensor `if` becomes an If node; constant conditions fold; `for`
// unrolls; join failures, print and list mutation are compile errors at the user's line; a new
// shape recompiles, visible as a graphCompiled event; a Cell with a bprop compiles to a
// CustomBprop node; a body with a value-dependent output shape (Unique) runs in Python.
// SPDX-License-Identifier: MIT
#include "tests/python/jit_test_support.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::python;
using namespace gradstep::python::test;

TEST_CASE("the samples give the same losses and gradients in graph and PyNative mode",
          "[python][jit]")
{
    for (const char* name :
         {"linear_regression", "xor_mlp", "has_aux_pitfall", "control_flow", "lenet5_digits",
          "custom_bprop", "exploding_gradients", "grad_fallback", "grad_operation_sens",
          "nan_from_log", "vanishing_gradients", "version_wrapper"}) {
        SECTION(name) { checkSameInBothModes(sample(name), 1e-5); }
    }
}

TEST_CASE("float64 gradients of a Cell agree with PyNative to 1e-9 and the override beats "
          "set_context", "[python][jit]")
{
    TempDir dir;
    const auto script = dir.write("main.py", kPrelude + R"PY(
ms.set_context(mode=ms.PYNATIVE_MODE)
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.linspace(-1, 1, 12).reshape(3, 4)), name="w")
        self.b = ms.Parameter(Tensor(np.linspace(0.5, 1, 4)), name="b")
    def construct(self, x):
        h = ops.tanh(ops.matmul(x, self.w) + self.b)
        return (h * h).sum() + ops.exp(h).mean()

net = Net()
x = Tensor(np.linspace(-2, 2, 6).reshape(2, 3))
g = ms.value_and_grad(net, 0, net.trainable_params())
for _ in range(3):
    loss, (gx, gw) = g(x)
print(float(loss))
)PY");
    ModeRun graph, eager;
    runInMode(script, ModeOverride::Graph, graph);
    runInMode(script, ModeOverride::PyNative, eager);
    INFO(graph.outcome.diagnostic());
    REQUIRE(graph.outcome.ok());
    REQUIRE(eager.outcome.ok());
    REQUIRE(graph.recorder.compiles.size() == 1); // cached after the first call
    CHECK(graph.recorder.compiles[0].function == "Net.construct");
    REQUIRE(graph.recorder.grads.size() == 3);
    for (std::size_t g = 0; g < 3; ++g)
        CHECK(relativeError(graph.recorder.grads[0][g], eager.recorder.grads[0][g]) <= 1e-9);
}

TEST_CASE("an if on a tensor becomes an If node and both branches run", "[python][jit]")
{
    ModeRun run = runGraphSource(kPrelude + R"PY(
def f(x):
    if x.mean() > 0.5:
        y = x * x
    else:
        y = x * 3.0
    return y.sum()

g = ms.value_and_grad(f)
v1, g1 = g(Tensor(np.array([0.2, 0.4, 0.6], np.float32)))
v2, g2 = g(Tensor(np.array([0.6, 0.8, 1.0], np.float32)))
assert np.allclose(g1.asnumpy(), [3, 3, 3]) and np.allclose(v1.asnumpy(), 3.6)
assert np.allclose(g2.asnumpy(), [1.2, 1.6, 2.0]) and np.allclose(v2.asnumpy(), 2.0)

def early(x):
    if x.sum() > 0:
        return x * 2.0
    return x - 1.0
jf = ms.jit(early)
assert np.allclose(jf(Tensor(np.array([1.0, 2.0], np.float32))).asnumpy(), [2, 4])
assert np.allclose(jf(Tensor(np.array([-1.0, -2.0], np.float32))).asnumpy(), [-2, -3])
)PY");
    INFO(run.outcome.diagnostic());
    REQUIRE(run.outcome.ok());
    REQUIRE(run.recorder.compiles.size() == 2);
    CHECK(run.recorder.compiles[0].ifNodes >= 1); // forward If (and the If of its gradients)
    CHECK(run.recorder.compiles[1].ifNodes == 1);
}

TEST_CASE("branches that do not join are compile errors at the line of the if",
          "[python][jit]")
{
    ModeRun shape = runGraphSource(kPrelude + R"PY(
@ms.jit
def f(x):
    if x.sum() > 0:
        y = x
    else:
        y = x.sum()
    return y

f(Tensor(np.ones(3, np.float32)))
)PY");
    REQUIRE_FALSE(shape.outcome.ok());
    const Diagnostic& d = *shape.outcome.result.diagnostic;
    CHECK(d.type == "ValueError");
    CHECK_THAT(d.message, Catch::Contains("Cannot join the return values of different branches")
                              && Catch::Contains("Shape Join Failed"));
    CHECK(d.span.line == 7);
    CHECK(d.span.column == 5);
    CHECK_THAT(d.format(), Catch::Contains("main.py:7:5: error: ValueError: Cannot join"));

    ModeRun type = runGraphSource(kPrelude + R"PY(
@ms.jit
def f(x):
    if x.sum() > 0:
        y = x
    else:
        y = ops.cast(x, ms.int32)
    return y

f(Tensor(np.ones(3, np.float32)))
)PY");
    REQUIRE_FALSE(type.outcome.ok());
    CHECK(type.outcome.result.diagnostic->type == "TypeError");
    CHECK_THAT(type.outcome.result.diagnostic->message, Catch::Contains("Type Join Failed"));
    CHECK(type.outcome.result.diagnostic->span.line == 7);
}

TEST_CASE("a constant condition is decided while compiling and for loops unroll",
          "[python][jit]")
{
    ModeRun run = runGraphSource(kPrelude + R"PY(
class Net(nn.Cell):
    def __init__(self, flag):
        super().__init__()
        self.flag = flag
        self.layers = [2.0, 3.0]
    def construct(self, x):
        if self.flag:
            x = x * 10.0
        else:
            x = x - 1.0
        for s in self.layers:
            x = x * s
        for i in range(len(self.layers)):
            x = x + i
        return x

x = Tensor(np.array([1.0, 2.0], np.float32))
assert np.allclose(Net(True)(x).asnumpy(), [61.0, 121.0])
assert np.allclose(Net(False)(x).asnumpy(), [1.0, 7.0])
)PY");
    INFO(run.outcome.diagnostic());
    REQUIRE(run.outcome.ok());
    REQUIRE(run.recorder.compiles.size() == 2);
    for (const Compile& c : run.recorder.compiles) {
        CHECK(c.ifNodes == 0);
        CHECK(c.whileNodes == 0);
    }
}

TEST_CASE("mutation of an outside list is a compile error (print of a tensor compiles: "
          "test_tutorial_graph_mode.py)",
          "[python][jit]")
{
    ModeRun mutating = runGraphSource(kPrelude + R"PY(
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.history = []
    def construct(self, x):
        y = x * 2.0
        self.history.append(y)
        return y

Net()(Tensor(np.ones(2, np.float32)))
)PY");
    REQUIRE_FALSE(mutating.outcome.ok());
    CHECK_THAT(mutating.outcome.result.diagnostic->message,
               Catch::Contains("list.append on a list that lives outside the compiled function"));
    CHECK(mutating.outcome.result.diagnostic->span.line == 11);

    ModeRun reading = runGraphSource(kPrelude + R"PY(
@ms.jit
def f(x):
    return x * float(x.sum())

f(Tensor(np.ones(2, np.float32)))
)PY");
    REQUIRE_FALSE(reading.outcome.ok());
    CHECK_THAT(reading.outcome.result.diagnostic->message,
               Catch::Contains("not known while the function is compiled for graph mode"));
    CHECK(reading.outcome.result.diagnostic->span.line == 7);
}

TEST_CASE("a new input shape recompiles and reports it, the same shape hits the cache",
          "[python][jit]")
{
    ModeRun run = runGraphSource(kPrelude + R"PY(
@ms.jit
def f(x):
    return ops.relu(x) * 2.0

f(Tensor(np.ones((2, 3), np.float32)))
f(Tensor(np.ones((2, 3), np.float32)))
f(Tensor(np.ones((4, 3), np.float32)))
stats = ms._jit_stats()
assert stats["compiles"] == 2 and stats["cache_hits"] == 1, stats
)PY");
    INFO(run.outcome.diagnostic());
    REQUIRE(run.outcome.ok());
    REQUIRE(run.recorder.compiles.size() == 2);
    CHECK(run.recorder.compiles[0].signature == "f32[2, 3]");
    CHECK(run.recorder.compiles[1].signature == "f32[4, 3]");
    CHECK(run.recorder.compiles[1].compiles == 2);
}

TEST_CASE("the PyNative override runs set_context(GRAPH_MODE) scripts and @jit eagerly",
          "[python][jit]")
{
    TempDir dir;
    ModeRun run;
    runInMode(dir.write("main.py", kPrelude + R"PY(
ms.set_context(mode=ms.GRAPH_MODE)
@ms.jit
def f(x):
    return x + 1.0
net = nn.Dense(2, 2)
net(Tensor(np.ones((1, 2), np.float32)))
f(Tensor(np.ones(2, np.float32)))
assert ms._jit_stats()["compiles"] == 0
)PY"),
              ModeOverride::PyNative, run);
    INFO(run.outcome.diagnostic());
    REQUIRE(run.outcome.ok());
    CHECK(run.recorder.compiles.empty());
}

TEST_CASE("a Cell with a custom bprop compiles to a CustomBprop node whose bprop is used "
          "verbatim, first and second order", "[python][jit]")
{
    TempDir dir;
    const auto script = dir.write("main.py", kPrelude + R"PY(
class Net(nn.Cell):
    def construct(self, x, y):
        return x * y * y
    def bprop(self, x, y, out, dout):
        return x + y, x * y

class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.array([2.0, 3.0])), name="w")
        self.k = Tensor(np.array([2.0, 3.0]))  # MindSpore refuses a bprop that reads a Parameter
    def construct(self, x):
        return ops.tanh(x * self.w), x * x
    def bprop(self, x, out, dout):
        a, b = out
        da, db = dout
        return (da * (1 - a * a) * self.k * 0.5 + db * x,)

class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Scaled()
        self.v = ms.Parameter(Tensor(np.array([0.5, -1.0])), name="v")
    def construct(self, x):
        a, b = self.inner(x * self.v)
        return (a * b).sum() + (a * a).sum()

x, y = Tensor(np.array([1.0])), Tensor(np.array([2.0]))
gx, gy = ms.grad(Net(), (0, 1))(x, y)
assert float(gx) == 3 and float(gy) == 2  # SEMANTICS.md 5.1 golden vector
net = Outer()
loss, (gin, (gv, gw)) = ms.value_and_grad(net, 0, net.trainable_params())(Tensor(np.array([0.3, -0.7])))
assert not gw.asnumpy().any()  # Parameters inside a bprop Cell get no gradient
print(float(loss), gin, gv)
print(ms.grad(ms.grad(Net(), 0), (0, 1))(x, y))
)PY");
    checkSameInBothModes(script, 1e-9);
    ModeRun graph;
    runInMode(script, ModeOverride::Graph, graph);
    REQUIRE(graph.outcome.ok());
    // Net's and Outer's gradients; grad of a gradient function is not compiled (it runs as in
    // PyNative, with the same results).
    REQUIRE(graph.recorder.compiles.size() == 2);
    for (const Compile& c : graph.recorder.compiles)
        CHECK(c.customBpropNodes == 1);
}

TEST_CASE("Parameter.set_data to a new shape (slice_shape) or set_dtype recompiles the Cell and its gradient",
          "[python][jit]")
{
    ModeRun run = runGraphSource(kPrelude + R"PY(
ms.set_context(mode=ms.GRAPH_MODE)
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.ones((2, 3), np.float32)), name="w")
    def construct(self, x):
        return ops.matmul(x, self.w).sum()

net = Net()
x = Tensor(np.ones((1, 2), np.float32))
g = ms.grad(net, None, net.trainable_params())
assert float(net(x)) == 6 and float(net(x)) == 6
assert g(x)[0].shape == (2, 3)
net.w.set_data(Tensor(np.ones((2, 4), np.float32)), slice_shape=True)
assert float(net(x)) == 8
assert g(x)[0].shape == (2, 4)
net.w.set_dtype(ms.float64)
net.w.set_data(Tensor(np.full((2, 4), 0.5, np.float64)))
x64 = Tensor(np.ones((1, 2), np.float64))
assert float(net(x64)) == 4
assert float(net(x64)) == 4
stats = ms._jit_stats()
assert stats["compiles"] == 5 and stats["cache_hits"] == 2, stats
)PY");
    INFO(run.outcome.diagnostic());
    REQUIRE(run.outcome.ok());
    REQUIRE(run.recorder.compiles.size() == 5);
    CHECK(run.recorder.compiles[2].function == "Net.construct");
    CHECK(run.recorder.compiles[2].compiles == 2); // the forward, again for w's new shape
    CHECK(run.recorder.compiles[3].compiles == 2); // the gradient, again
}

TEST_CASE("a body holding an op with a value-dependent output shape runs in Python with the "
          "values, as MindSpore's dynamic-shape kernels give",
          "[python][jit]")
{
    ModeRun run = runGraphSource(kPrelude + R"PY(
ms.set_context(mode=ms.GRAPH_MODE)
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.unique = ops.Unique()
        self.gather = ops.Gather()
    def construct(self, table, indices):
        kept, _ = self.unique(indices)
        return self.gather(table, kept, 0) * 2.0

table = Tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
out = Net()(table, Tensor(np.array([3, 1, 3, 1], np.int32)))
assert out.shape == (2, 2), out.shape
assert np.array_equal(out.asnumpy(), [[12.0, 14.0], [4.0, 6.0]]), out  # rows 3 and 1 (first occurrence), doubled

@ms.jit
def positive(x):
    return ops.masked_select(x, x > 0) + 1.0

picked = positive(Tensor(np.array([-1.0, 2.0, -3.0, 4.0], np.float32)))
assert np.array_equal(picked.asnumpy(), [3.0, 5.0]), picked

@ms.jit
def plain(x):
    return x * 3.0
assert np.array_equal(plain(Tensor(np.ones(2, np.float32))).asnumpy(), [3.0, 3.0])
assert ms._jit_stats()["compiles"] >= 1
)PY");
    INFO(run.outcome.diagnostic());
    REQUIRE(run.outcome.ok());
    CHECK_FALSE(run.recorder.compiles.empty());
}
