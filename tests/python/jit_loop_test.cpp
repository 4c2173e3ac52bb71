// Graph mode's `while` (core/python/jit/jit_loop.cpp): a tensor condition compiles to one While node
// that runs like PyNative, with `and` / `not` over tensors and Python counters carried as 0-D
// tensors; gradients through loops agree with PyNative (1e-9, float64) and with central
// differences; loop variables that change shape or dtype are compile errors at the `while`;
// the iteration bound (set_context(max_call_depth)) names the loop's line; constant conditions
// still unroll. SPDX-License-Identifier: MIT
#include "tests/python/jit_test_support.h"

#include "graph/text_format.h"
#include "graph/text_parser.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

// Three loops: doubling until a threshold, a tensor counter with weights in the body (0, 1 and
// 4 iterations), each checked against central differences inside the script.
const std::string kGradientScript = kPrelude + R"PY(
def doubling(x):
    while x.sum() < 10:
        x = x * 2
    return (x * x * Tensor(np.array([0.5, -1.5, 2.0]))).sum()

class Recurrent(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(Tensor(np.linspace(-0.8, 0.8, 9).reshape(3, 3)), name="w")
        self.b = ms.Parameter(Tensor(np.array([0.1, -0.2, 0.3])), name="b")
    def construct(self, h, n):
        i = Tensor(0)
        while i < n and ops.reduce_sum(h * h) > 1e-6:
            h = ops.tanh(ops.matmul(h, self.w) + self.b)
            i = i + 1
        return (h * h).sum()

def central(f, x, eps=1e-6):
    x = x.asnumpy()
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        g[i] = (float(f(Tensor(up))) - float(f(Tensor(down)))) / (2 * eps)
    return g

for v in ([0.2, 0.3, 0.4], [3.0, 4.0, 5.0], [1.0, 2.0, 3.0]):
    x = Tensor(np.array(v))
    loss, gx = ms.value_and_grad(doubling)(x)
    assert np.allclose(gx.asnumpy(), central(doubling, x), rtol=1e-6, atol=1e-6), gx
    print("doubling", float(loss))

net = Recurrent()
h = Tensor(np.array([[0.5, -0.3, 0.8]]))
g = ms.value_and_grad(net, 0, net.trainable_params())
for n in (0, 1, 4):
    loss, (gh, (gw, gb)) = g(h, Tensor(n))
    assert np.allclose(gh.asnumpy(), central(lambda v: net(v, Tensor(n)), h), rtol=1e-6, atol=1e-7)
    if n == 0:
        assert np.allclose(gh.asnumpy(), 2 * h.asnumpy()) and not gw.asnumpy().any()
    print("recurrent", n, float(loss))
)PY";

} // namespace

TEST_CASE("a while on a tensor condition compiles to one While node and runs like PyNative",
          "[python][jit]")
{
    TempDir dir;
    const auto script = dir.write("main.py", kPrelude + R"PY(
@ms.jit
def doubling(x):
    while x.sum() < 10:
        x = x * 2
    return x

@ms.jit
def halving(x):
    i = Tensor(0)
    while ops.reduce_sum(x) > 1e-3 and i < 5 and not x.sum() < 0:
        x = x * 0.5
        i = i + 1
    return x, i

@ms.jit
def counting(x):
    n = 0
    while x.sum() < 100:
        x = x * 3
        n += 1
    return x, n

assert np.allclose(doubling(Tensor(np.array([0.2, 0.3, 0.4], np.float32))).asnumpy(), [3.2, 4.8, 6.4])
assert np.allclose(doubling(Tensor(np.array([3.0, 4.0, 5.0], np.float32))).asnumpy(), [3, 4, 5])
x, i = halving(Tensor(np.array([1.0, 2.0], np.float32)))
assert np.allclose(x.asnumpy(), [1 / 32, 2 / 32]) and int(i) == 5
x, n = counting(Tensor(np.array([1.0, 2.0], np.float32)))
assert np.allclose(x.asnumpy(), [81, 162]) and int(n) == 4
print(x, int(n))
)PY");
    ModeRun graph, eager;
    runInMode(script, ModeOverride::Graph, graph);
    runInMode(script, ModeOverride::PyNative, eager);
    INFO(graph.outcome.diagnostic() << eager.outcome.diagnostic());
    REQUIRE(graph.outcome.ok());
    REQUIRE(eager.outcome.ok());
    CHECK(graph.outcome.out == eager.outcome.out);
    REQUIRE(graph.recorder.compiles.size() == 3);
    for (const Compile& c : graph.recorder.compiles) {
        CHECK(c.whileNodes == 1);
        // The compiled loop prints with its subgraphs and the while's location, and round-trips.
        CHECK_THAT(c.text, Catch::Contains("    cond(") && Catch::Contains("    body(")
                               && Catch::Contains("{max_iterations=1000}"));
        CHECK(printGraph(parseGraph(c.text, "compiled.ir")) == c.text);
    }
    CHECK_THAT(graph.recorder.compiles[0].text, Catch::Contains("main.py:7:5"));
    // The doubling loop ran 4 and 0 times, halving 5, counting 4: one condition per iteration and
    // one more per run (each condition has one Less or Greater), body nodes once per iteration.
    CHECK(graph.recorder.started["While"] == 4);
    CHECK(graph.recorder.started["Less"] == (4 + 1) + (0 + 1) + 2 * (5 + 1) + (4 + 1));
}

TEST_CASE("gradients through while loops agree with PyNative and with central differences",
          "[python][jit]")
{
    TempDir dir;
    const auto script = dir.write("main.py", kGradientScript);
    checkSameInBothModes(script, 1e-9);
    ModeRun graph;
    runInMode(script, ModeOverride::Graph, graph);
    REQUIRE(graph.outcome.ok());
    CHECK(graph.recorder.grads.size() == 6);
    CHECK(graph.recorder.started["WhileGrad"] == 6);
}

TEST_CASE("loop variables that change shape or dtype are compile errors at the while",
          "[python][jit]")
{
    const std::string head = kPrelude + R"PY(
@ms.jit
def f(x):
    while x.sum() < 10:
)PY";
    const std::string tail = "    return x\n\nf(Tensor(np.ones(3, np.float32)))\n";
    ModeRun shape = runGraphSource(head + "        x = ops.concat((x, x))\n" + tail);
    REQUIRE_FALSE(shape.outcome.ok());
    const Diagnostic& d = *shape.outcome.result.diagnostic;
    CHECK(d.type == "ValueError");
    CHECK_THAT(d.message, Catch::Contains("Cannot join the values of a while loop's iterations, "
                                          "variable 'x' differs in shape. Shape Join Failed: "
                                          "shape1 = (3,), shape2 = (6,)."));
    CHECK(d.span.line == 7);
    CHECK(d.span.column == 5);

    ModeRun type = runGraphSource(head + "        x = ops.cast(x, ms.int32)\n" + tail);
    REQUIRE_FALSE(type.outcome.ok());
    CHECK(type.outcome.result.diagnostic->type == "TypeError");
    CHECK_THAT(type.outcome.result.diagnostic->message,
               Catch::Contains("Type Join Failed: dtype1 = Float32, dtype2 = Int32"));
    CHECK(type.outcome.result.diagnostic->span.line == 7);

    ModeRun exits = runGraphSource(head + "        x = x * 2\n        break\n" + tail);
    REQUIRE_FALSE(exits.outcome.ok());
    CHECK_THAT(exits.outcome.result.diagnostic->message,
               Catch::Contains("break and continue inside a `while` on a tensor condition"));
    CHECK(exits.outcome.result.diagnostic->span.line == 9);

    ModeRun text = runGraphSource(kPrelude + R"PY(
@ms.jit
def f(x):
    name = "a"
    while x.sum() < 10:
        x = x * 2
        name = name + "b"
    return x

f(Tensor(np.ones(3, np.float32)))
)PY");
    REQUIRE_FALSE(text.outcome.ok());
    CHECK_THAT(text.outcome.result.diagnostic->message,
               Catch::Contains("variable 'name' holds a Python str"));
    CHECK(text.outcome.result.diagnostic->span.line == 8);
}

TEST_CASE("a loop that runs past max_call_depth fails at run time naming the while's line",
          "[python][jit]")
{
    ModeRun run = runGraphSource(kPrelude + R"PY(
ms.set_context(max_call_depth=7)
@ms.jit
def f(x):
    while x.sum() < 10:
        x = x + 0.0
    return x

assert float(f(Tensor(np.ones(3, np.float32) * 4)).sum()) == 12
f(Tensor(np.ones(3, np.float32)))
)PY");
    REQUIRE_FALSE(run.outcome.ok());
    const Diagnostic& d = *run.outcome.result.diagnostic;
    CHECK(d.type == "RuntimeError");
    CHECK_THAT(d.message, Catch::StartsWith("the while loop exceeded its bound of 7 "
                                            "iterations (MindSpore: Exceed function call depth "
                                            "limit 7)"));
    // The diagnostic points at the loop, not at the call of the compiled function.
    CHECK(d.span.line == 8);
    CHECK(d.span.column == 5);
}

TEST_CASE("a while on a constant condition is still unrolled while compiling", "[python][jit]")
{
    ModeRun run = runGraphSource(kPrelude + R"PY(
@ms.jit
def f(x):
    n = 3
    while n > 0 and x is not None:
        x = x * 2.0
        n -= 1
    return x

assert np.allclose(f(Tensor(np.ones(2, np.float32))).asnumpy(), [8, 8])
)PY");
    INFO(run.outcome.diagnostic());
    REQUIRE(run.outcome.ok());
    REQUIRE(run.recorder.compiles.size() == 1);
    CHECK(run.recorder.compiles[0].whileNodes == 0);
    CHECK(run.recorder.started["Mul"] == 3);
}
