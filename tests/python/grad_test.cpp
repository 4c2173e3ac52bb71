// mindspore.grad / value_and_grad / get_grad, ops.GradOperation / stop_gradient, jit and the API
// profiles from Python (core/python/bind/bind_grad.cpp, grad_adapter.cpp, api_profile.cpp): the return
// structures of SEMANTICS.md §1.4 and §2, argument passing, errors, higher order, golden vectors
// of §1.7, and the step events a script's gradient calls send to the observer.
// SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include "api/value.h"
#include "autodiff/observer.h"

#include <catch2/catch.hpp>

#include <mutex>

using namespace gradstep;
using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

// A tiny "network" made of Parameters and a function (nn.Cell is bound elsewhere):
// out = sum((x @ w + b) * y), so dx = y @ w^T, dy = x @ w + b, dw = x^T @ y, db = sum_rows(y).
const std::string kPrelude = R"PY(import mindspore as ms
import numpy as np
from mindspore import Tensor, Parameter, ParameterTuple, ops

def close(a, b, tol=1e-5):
    a = a.asnumpy() if isinstance(a, Tensor) else np.asarray(a)
    return a.shape == np.asarray(b).shape and np.allclose(a, b, atol=tol)

def raises(kind, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except kind as e:
        return str(e)
    raise AssertionError("no " + kind.__name__)

xv = np.array([[1.0, 2.0], [-1.0, 0.5]], np.float32)
yv = np.array([[0.5, 1.0], [2.0, -1.0]], np.float32)
wv = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
bv = np.array([0.5, -0.5], np.float32)
x, y = Tensor(xv), Tensor(yv)
w = Parameter(Tensor(wv), name="w")
b = Parameter(Tensor(bv), name="b")
params = ParameterTuple([w, b])

def net(x, y):
    return ((x @ w + b) * y).sum()

dx, dy = yv @ wv.T, xv @ wv + bv
dw, db = xv.T @ yv, yv.sum(axis=0)
out = ((xv @ wv + bv) * yv).sum()
)PY";

void checkPython(const std::string& body, const std::string& prelude = kPrelude)
{
    checkRuns(prelude + body);
}

} // namespace

TEST_CASE("grad by an int position gives a bare Tensor and value_and_grad the pair (out, grad)")
{
    checkPython(R"PY(
g = ms.grad(net)(x, y)
assert isinstance(g, Tensor) and close(g, dx)
assert close(ms.grad(net, 1)(x, y), dy)
v, g = ms.value_and_grad(net, grad_position=1)(x, y)
assert close(v, out) and close(g, dy)
assert close(ms.grad(net, (0,))(x, y), dx)   # a 1-tuple is unwrapped like an int
assert close(ms.grad(net, True)(x, y), dy)   # a bool counts as an int, as in MindSpore
)PY");
}

TEST_CASE("grad by a tuple of positions gives a tuple in the tuple's order")
{
    checkPython(R"PY(
g = ms.grad(net, (1, 0))(x, y)
assert type(g) is tuple and len(g) == 2 and close(g[0], dy) and close(g[1], dx)
v, g = ms.value_and_grad(net, (0, 1))(x, y)
assert close(v, out) and close(g[0], dx) and close(g[1], dy)
)PY");
}

TEST_CASE("grad by weights only gives one gradient per weight, bare for a lone Parameter")
{
    checkPython(R"PY(
for weights in (params, [w, b], (w, b)):
    g = ms.grad(net, None, weights)(x, y)
    assert type(g) is tuple and len(g) == 2 and close(g[0], dw) and close(g[1], db)
g = ms.grad(net, grad_position=None, weights=ParameterTuple([b]))(x, y)
assert type(g) is tuple and len(g) == 1 and close(g[0], db)
g = ms.grad(net, grad_position=None, weights=w)(x, y)
assert isinstance(g, Tensor) and close(g, dw)
v, g = ms.value_and_grad(net, None, params)(x, y)
assert close(v, out) and close(g[0], dw) and close(g[1], db)
)PY");
}

TEST_CASE("grad by positions and weights gives (inputs, weights)")
{
    checkPython(R"PY(
gi, gw = ms.grad(net, 0, params)(x, y)
assert close(gi, dx) and close(gw[0], dw) and close(gw[1], db)
(gx, gy), gw = ms.grad(net, (0, 1), params)(x, y)
assert close(gx, dx) and close(gy, dy) and close(gw[1], db)
v, (gi, gw) = ms.value_and_grad(net, 0, params)(x, y)
assert close(v, out) and close(gi, dx) and close(gw[0], dw)
)PY");
}

TEST_CASE("has_aux differentiates output 0 only and returns the rest as a tuple")
{
    checkPython(R"PY(
def with_aux(x, y):
    loss = net(x, y)
    return loss, x * 3, y
g, aux = ms.grad(with_aux, has_aux=True)(x, y)
assert close(g, dx) and type(aux) is tuple and len(aux) == 2 and close(aux[0], xv * 3) and close(aux[1], yv)
(v, a1, a2), g = ms.value_and_grad(with_aux, 0, params, has_aux=True)(x, y)
assert close(v, out) and close(a1, xv * 3) and close(g[0], dx) and close(g[1][0], dw)
def one_aux(x, y):
    return net(x, y), x
g, (a,) = ms.grad(one_aux, 0, None, True)(x, y)
assert close(g, dx) and close(a, xv)
# without has_aux every output counts: d/dx (out + sum(3x)) = dx + 3
assert close(ms.grad(lambda x, y: (net(x, y), (x * 3).sum()))(x, y), dx + 3)
msg = raises(ValueError, ms.grad(net, has_aux=True), x, y)
assert msg == "When has_aux is True, origin fn requires more than one outputs.", msg
)PY");
}

TEST_CASE("grad checks its arguments with MindSpore's errors")
{
    checkPython(R"PY(
msg = raises(ValueError, ms.grad, net, None, None)
assert msg == "`grad_position` and `weight` can not be None at the same time.", msg
assert "duplicate positions" in raises(ValueError, ms.grad, net, (1, 1))
assert raises(ValueError, ms.grad, net, -1) == "grad_position must be >= 0."
assert raises(TypeError, ms.value_and_grad, net, [0, 1]) == "For 'F.grad', the 'grad_position' must be int or tuple."
assert raises(TypeError, ms.grad, net, (0, "1")) == "For 'F.grad', the element in 'grad_position' must be int."
assert "'weights'" in raises(TypeError, ms.grad, net, 0, [w, x])
assert "has_aux" in raises(TypeError, ms.grad, net, 0, None, 1)
assert "'fn'" in raises(TypeError, ms.grad, 3)
# grad_position past the last input: PyNative's engine error (graph mode's is an IndexError).
msg = raises(RuntimeError, ms.grad(net, 2), x, y)
assert msg == "Position index 2 is exceed input size.", msg
ms.set_context(mode=ms.GRAPH_MODE)
msg = raises(IndexError, ms.grad(net, 2), x, y)
assert msg == "Position index 2 is exceed input size.", msg
ms.set_context(mode=ms.PYNATIVE_MODE)
# A position holding a number selects nothing; a function returning a number has zero gradients.
assert ms.grad(lambda x, n: x * n, 1)(x, 3) == ()
assert close(ms.grad(lambda x: 2.0)(x), np.zeros((2, 2)))
msg = raises(TypeError, ms.grad(lambda x: "two"), x)
assert "must return Tensors" in msg and "'str'" in msg, msg
assert raises(ZeroDivisionError, ms.grad(lambda x: 1 / 0), x) == "division by zero"
)PY");
}

TEST_CASE("arguments that are not differentiated reach the function unchanged, with keywords")
{
    checkPython(R"PY(
seen = []
def f(x, n, flag, items, none, scale=1.0):
    seen.append((n, flag, type(items), len(items), none, scale))
    out = x * n * scale
    for t in items:
        out = out + t
    return out.sum() if flag else out
g = ms.grad(f)(x, 3, True, [y, y], None, scale=2.0)
assert close(g, np.full((2, 2), 6.0, np.float32))
assert seen == [(3, True, list, 2, None, 2.0)], seen
v, g = ms.value_and_grad(lambda a, n, c: a * n + c, (0, 2))(x, 2, y)
assert close(v, 2 * xv + yv) and close(g[0], np.full((2, 2), 2.0)) and close(g[1], np.ones((2, 2)))
# Positions holding a tuple, None or a number are skipped, as MindSpore's engines skip them.
assert ms.grad(f, 3)(x, 2, True, (y,), None) == ()
g = ms.grad(f, (0, 3, 4))(x, 2, True, (y,), None)
assert close(g, np.full((2, 2), 2.0)), g
class Callable:  # what an nn.Cell is to grad: an object with __call__
    def __init__(self):
        self.k = Parameter(Tensor([3.0]), name="k")
    def __call__(self, x, shift=0.0):
        return (x * self.k + shift).sum()
c = Callable()
assert close(ms.grad(c)(x, shift=1.0), np.full((2, 2), 3.0))
assert close(ops.GradOperation(get_by_list=True)(c, [c.k])(x, shift=1.0)[0], [xv.sum()])
p = Parameter(Tensor([2.0]), name="p")
got = []
ms.grad(lambda x, q: (got.append(q), x * q)[1], 0)(x, p)
assert got[0] is p
)PY");
}

TEST_CASE("grad of grad gives the second derivative from Python")
{
    checkPython(R"PY(
t = Tensor(np.array([-1.5, 0.0, 2.0]))
cube = lambda x: x * x * x
assert close(ms.grad(cube)(t), 3 * np.array([-1.5, 0.0, 2.0]) ** 2)
assert close(ms.grad(ms.grad(cube))(t), [-9.0, 0.0, 12.0])
assert close(ms.grad(ms.grad(ms.grad(cube)))(t), [6.0, 6.0, 6.0])
f = lambda x, y: x * x * y
a, c = Tensor([3.0]), Tensor([-2.0])
assert close(ms.grad(ms.grad(f, 0), 1)(a, c), [6.0])
assert close(ms.ops.grad(ms.ops.grad(f, 1), 0)(a, c), [6.0])
v, g = ms.value_and_grad(ms.grad(cube))(Tensor([2.0]))
assert close(v, [12.0]) and close(g, [12.0])
)PY");
}

TEST_CASE("stop_gradient cuts the gradient: the golden x*y + stop_gradient(x*y) vector")
{
    checkPython(R"PY(
a, c = Tensor([3.0]), Tensor([5.0])
assert close(ms.grad(lambda x, y: x * y + ops.stop_gradient(x * y))(a, c), [5.0])
assert close(ms.grad(lambda x, y: x * y + x * y)(a, c), [10.0])
s = ops.stop_gradient((a * c, [a]))
assert type(s) is tuple and close(s[0], [15.0]) and close(s[1][0], [3.0])
assert ops.stop_gradient(3) == 3
)PY");
}

TEST_CASE("golden: the grad and value_and_grad examples of SEMANTICS.md 1.7")
{
    checkPython(R"PY(
import math
f = lambda x, y, z: x * y * z
X, Y, Z = Tensor([1.0, 2.0]), Tensor([-2.0, 3.0]), Tensor([0.0, 3.0])
g = ms.grad(f, grad_position=(1, 2))(X, Y, Z)
assert close(g[0], [0.0, 6.0]) and close(g[1], [-2.0, 6.0])
v, g = ms.value_and_grad(f, grad_position=1)(X, Y, Z)
assert close(v, [-0.0, 18.0]) and close(g, [0.0, 6.0])
# f = (x * e^y * z^2, z) with e^y written as e ** y (Tensor.__rpow__)
fa = lambda x, y, z: (x * (math.e ** y) * z * z, z)
g, aux = ms.grad(fa, (1, 2), None, True)(Tensor([3.0, 3.0]), Tensor([0.0, 0.0]), Tensor([5.0, 5.0]))
assert close(g[0], [75.0, 75.0]) and close(g[1], [30.0, 30.0]) and len(aux) == 1 and close(aux[0], [5.0, 5.0])
zp = Parameter(Tensor([1.0]), name="z")
h = lambda x, y: x * x * y * zp
g = ms.grad(h, (0, 1))(Tensor([3.0]), Tensor([5.0]))
assert close(g[0], [30.0]) and close(g[1], [9.0])
g = ms.grad(h, None, ParameterTuple([zp]))(Tensor([3.0]), Tensor([5.0]))
assert type(g) is tuple and len(g) == 1 and close(g[0], [45.0])
)PY");
}

TEST_CASE("GradOperation gives the four structures of SEMANTICS.md 2")
{
    checkPython(R"PY(
from mindspore.ops import GradOperation
g = GradOperation()(net)(x, y)
assert isinstance(g, Tensor) and close(g, dx)
g = GradOperation(get_all=True)(net)(x, y)
assert type(g) is tuple and close(g[0], dx) and close(g[1], dy)
g = GradOperation(get_all=True)(lambda x: (x * x).sum())(x)
assert type(g) is tuple and len(g) == 1 and close(g[0], 2 * xv)
g = GradOperation(get_by_list=True)(net, params)(x, y)
assert type(g) is tuple and close(g[0], dw) and close(g[1], db)
gi, gw = GradOperation(get_all=True, get_by_list=True)(net, params)(x, y)
assert close(gi[0], dx) and close(gi[1], dy) and close(gw[0], dw)
g = GradOperation(get_all=True)(lambda x, k, y: ((x * k) * y).sum())(x, 2, y)
assert len(g) == 2 and close(g[0], 2 * yv) and close(g[1], 2 * xv)
assert repr(GradOperation(get_all=True)) == "GradOperation(get_all=True, get_by_list=False, sens_param=False)"
msg = raises(TypeError, GradOperation, get_all=1)
assert msg == "For 'GradOperation', the 'get_all' should be bool, but got int.", msg
assert "params" in raises(TypeError, GradOperation(get_by_list=True), net)
assert ops.GradOperation is GradOperation
)PY");
}

TEST_CASE("GradOperation(sens_param=True) takes the sens last or as the keyword sens")
{
    checkPython(R"PY(
from mindspore.ops import GradOperation
zp = Parameter(Tensor([1.0]), name="z")
mm = lambda x, y: (x * zp) @ y
X = Tensor(np.array([[0.8, 0.6, 0.2], [1.8, 1.3, 1.1]], np.float32))
Y = Tensor(np.array([[0.11, 3.3, 1.1], [1.1, 0.2, 1.4], [1.1, 2.2, 0.3]], np.float32))
S = np.array([[0.1, 0.6, 0.2], [0.8, 1.3, 1.1]], np.float32)
gx, gy = GradOperation(get_all=True, sens_param=True)(mm)(X, Y, Tensor(S))
assert close(gx, S @ Y.asnumpy().T) and close(gy, X.asnumpy().T @ S)
assert close(gx[0], [2.211, 0.51, 1.49], 1e-3)
gx2, _ = GradOperation(get_all=True, sens_param=True)(mm)(X, Y, sens=Tensor(S))
assert close(gx2, gx)
g = GradOperation(get_by_list=True)(mm, ParameterTuple([zp]))(X, Y)
assert type(g) is tuple and close(g[0], [21.536], 1e-3)
Yr = np.array([[0.01, 0.3, 1.1], [0.1, 0.2, 1.3], [2.1, 1.2, 3.3]], np.float32)
g = GradOperation()(mm)(X, Tensor(Yr))
assert close(g, np.tile(Yr.sum(axis=1), (2, 1)))
two = lambda x: (x * 2, x * 3)
g = GradOperation(sens_param=True)(two)(x, (Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((2, 2), np.float32))))
assert close(g, np.full((2, 2), 5.0))
assert "sens" in raises(ValueError, GradOperation(sens_param=True)(mm), X, Y, Tensor(np.ones((3, 3), np.float32)))
)PY");
}

TEST_CASE("return_ids pairs each gradient with its position or name and get_grad finds it")
{
    checkPython(R"PY(
g = ms.grad(net, (0, 1), params, return_ids=True)(x, y)
(p0, p1), (pw, pb) = g
assert p0[0] == 0 and close(p0[1], dx) and p1[0] == 1 and pw[0] == "w" and close(pb[1], db)
assert close(ms.get_grad(g, 1), dy) and close(ms.get_grad(g, w), dw) and close(ms.get_grad(g, b), db)
single = ms.grad(net, 0, return_ids=True)(x, y)
assert single[0] == 0 and close(ms.get_grad(single, 0), dx)
g, aux = ms.grad(lambda x, y: (net(x, y), x), 1, w, has_aux=True, return_ids=True)(x, y)
assert g[0][0] == 1 and g[1][0] == "w" and close(aux[0], xv)
assert "Can not find" in raises(RuntimeError, ms.get_grad, single, 1)
assert "identifier" in raises(TypeError, ms.get_grad, single, "w")
raises(TypeError, ms.value_and_grad, net, 0, None, False, return_ids=True)  # not in 2.2's signature
)PY");
}

TEST_CASE("jit and ms_function decorate functions and methods and run them as they are")
{
    checkPython(R"PY(
@ms.jit
def double(t):
    return t * 2
@ms.jit(input_signature=None)
def triple(t):
    return t * 3
@ms.ms_function
def square(t):
    return t * t
class Holder:
    k = 4.0
    @ms.jit
    def scale(self, t):
        return t * self.k
assert close(double(x), 2 * xv) and close(triple(x), 3 * xv) and close(square(x), xv * xv)
assert double.__name__ == "double" and close(Holder().scale(x), 4 * xv)
assert close(ms.grad(double)(x), np.full((2, 2), 2.0))
assert "'fn'" in raises(TypeError, ms.jit, 5)
ms.set_context(mode=ms.PYNATIVE_MODE)
assert ms.get_context("mode") == ms.PYNATIVE_MODE
)PY");
}

TEST_CASE("mindspore.ops has grad and value_and_grad as well")
{
    checkPython(R"PY(
from mindspore.ops import grad, value_and_grad, GradOperation, stop_gradient
assert close(grad(net)(x, y), dx)
v, g = value_and_grad(net, None, params)(x, y)
assert close(v, out) and close(g[1], db)
)PY");
}

namespace {

Outcome runWithProfile(const std::string& source, const std::string& profile, ExecutionObserver* observer = nullptr)
{
    TempDir dir;
    RunRequest request;
    request.script = dir.write("main.py", source);
    request.apiProfile = profile;
    request.observer = observer;
    request.timeout = std::chrono::seconds(20);
    ensureHost();
    Outcome o;
    std::mutex mutex;
    request.output = [&](OutputStream stream, std::string_view text) {
        std::lock_guard lock(mutex);
        (stream == OutputStream::Stdout ? o.out : o.err) += text;
    };
    ScriptRunner runner;
    o.result = runner.run(std::move(request));
    return o;
}

} // namespace

TEST_CASE("under the 1.10 profile the 2.0 top-level names are missing as Python reports it")
{
    const Outcome old = runWithProfile(R"PY(
import mindspore as ms
from mindspore import ops, Tensor
assert ms.__version__ == "1.10.1", ms.__version__
for name in ("grad", "value_and_grad", "get_grad", "jit"):
    assert not hasattr(ms, name), name
try:
    ms.value_and_grad
except AttributeError as e:
    assert str(e) == "module 'mindspore' has no attribute 'value_and_grad'", str(e)
else:
    raise AssertionError("no AttributeError")
try:
    from mindspore import grad
except ImportError as e:
    assert "cannot import name 'grad'" in str(e), str(e)
else:
    raise AssertionError("no ImportError")
assert ops.value_and_grad(lambda x: x * x)(Tensor([3.0]))[1].asnumpy().tolist() == [6.0]
assert ms.ms_function(lambda x: x)(1) == 1 and callable(ops.GradOperation())
ms.grad = "the script's own"
)PY", "1.10");
    INFO(old.diagnostic());
    CHECK(old.ok());

    const Outcome next = runWithProfile(R"PY(
import mindspore as ms
assert ms.__version__ != "1.10.1" and ms.__version__.startswith("2.")
assert callable(ms.grad) and callable(ms.value_and_grad) and callable(ms.jit) and callable(ms.get_grad)
assert callable(ms.ms_function)
)PY", "2.x");
    INFO(next.diagnostic());
    CHECK(next.ok());

    CHECK_THROWS_AS(runWithProfile("pass\n", "1.9"), ValueError);
}

namespace {

struct ScriptSteps : ExecutionObserver {
    void nodeStarted(const NodeEvent&) override {}
    void nodeFinished(const NodeEvent&) override {}
    void gradCallStarted(const GradCallEvent& e) override
    {
        log.push_back("grad+" + std::to_string(e.index) + "@" + std::to_string(e.depth));
        if (e.index == 1)
            for (const Parameter& p : e.weights)
                names.push_back(p.name());
    }
    void gradCallFinished(const GradCallEvent& e) override
    {
        log.push_back("grad-" + std::to_string(e.index) + "@" + std::to_string(e.depth));
        if (e.value && e.value->isTensor())
            values.push_back(e.value->tensor().item());
        for (const Tensor& g : e.weightGrads)
            gradients.push_back(g.item());
    }
    std::vector<std::string> log;
    std::vector<std::string> names;
    std::vector<double> values;
    std::vector<double> gradients;
};

} // namespace

TEST_CASE("a script's gradient calls reach the run's observer as step events")
{
    ScriptSteps steps;
    const Outcome o = runWithProfile(R"PY(
import mindspore as ms
from mindspore import Tensor, Parameter
w = Parameter(Tensor([2.0]), name="w")
loss = lambda x: (x * w * w).sum()
step = ms.value_and_grad(loss, None, [w])
for _ in range(2):
    v, (g,) = step(Tensor([3.0]))
ms.grad(ms.grad(lambda x: x * x * x))(Tensor([1.0]))
)PY", "2.x", &steps);
    INFO(o.diagnostic());
    REQUIRE(o.ok());
    CHECK(steps.log == std::vector<std::string>{"grad+1@0", "grad-1@0", "grad+2@0", "grad-2@0",
                                                 "grad+3@0", "grad+4@1", "grad-4@1", "grad-3@0"});
    CHECK(steps.names == std::vector<std::string>{"w"});
    CHECK(steps.values == std::vector<double>{12.0, 12.0});
    CHECK(steps.gradients == std::vector<double>{12.0, 12.0});
}
