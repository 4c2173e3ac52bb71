// The what-if switches of a run as the gradient APIs obey them (core/python/bind/grad_overrides.cpp,
// run_overrides.h): has_aux forced on or off (SEMANTICS.md §1.6), value_and_grad run as the
// grad-only fallback (the forward runs twice), grad-only calls run through value_and_grad.
// SPDX-License-Identifier: MIT
#include "tests/python/python_test_support.h"

#include "autodiff/observer.h"
#include "ops/op_def.h"

#include <catch2/catch.hpp>

#include <mutex>

using namespace gradstep;
using namespace gradstep::python;
using namespace gradstep::python::test;

namespace {

// f returns (loss, z) with z = x @ w + b and loss = sum(z * y). Differentiating the loss alone
// (has_aux) gives dw = x^T y, db = sum_rows(y); differentiating the sum of both outputs (§1.5)
// adds d(sum z): x^T 1 and the number of rows.
const std::string kPrelude = R"PY(import mindspore as ms
import numpy as np
from mindspore import Tensor, Parameter, ParameterTuple, ops

def close(a, b, tol=1e-5):
    a = a.asnumpy() if isinstance(a, Tensor) else np.asarray(a)
    return a.shape == np.asarray(b).shape and np.allclose(a, b, atol=tol)

xv = np.array([[1.0, 2.0], [-1.0, 0.5]], np.float32)
yv = np.array([[0.5, 1.0], [2.0, -1.0]], np.float32)
wv = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
bv = np.array([0.5, -0.5], np.float32)
x, y = Tensor(xv), Tensor(yv)
w = Parameter(Tensor(wv), name="w")
b = Parameter(Tensor(bv), name="b")
params = ParameterTuple([w, b])
zv = xv @ wv + bv
loss_v = (zv * yv).sum()

def f(x, y):
    z = x @ w + b
    return (z * y).sum(), z

def single(x, y):
    return ((x @ w + b) * y).sum()

aux_dw, aux_db = xv.T @ yv, yv.sum(axis=0)                  # output 0 only
sum_dw, sum_db = aux_dw + xv.T @ np.ones_like(zv), aux_db + 2.0  # loss + sum(z)
dx = yv @ wv.T
)PY";

/// Counts the forward MatMuls (one per forward pass of f) and the depth-0 gradient calls, and
/// whether their finished events carried a value.
struct Counter : ExecutionObserver {
    std::mutex mutex;
    int forwardMatMuls = 0;
    int gradCalls = 0;
    int callsWithValue = 0;

    void nodeStarted(const NodeEvent&) override {}
    void nodeFinished(const NodeEvent& e) override
    {
        std::lock_guard lock(mutex);
        if (e.phase == Phase::Forward && e.op && e.op->name == "MatMul")
            ++forwardMatMuls;
    }
    void gradCallFinished(const GradCallEvent& e) override
    {
        std::lock_guard lock(mutex);
        if (e.depth != 0)
            return;
        ++gradCalls;
        callsWithValue += e.value != nullptr ? 1 : 0;
    }
};

Outcome runWith(const std::string& body, RunOverrides overrides,
                ExecutionObserver* observer = nullptr)
{
    ensureHost();
    TempDir dir;
    RunRequest request;
    request.script = dir.write("main.py", kPrelude + body);
    request.timeout = std::chrono::seconds(20);
    request.observer = observer;
    request.overrides = overrides;
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

RunOverrides hasAux(HasAuxOverride value)
{
    RunOverrides o;
    o.hasAux = value;
    return o;
}

RunOverrides gradApi(GradApiOverride value)
{
    RunOverrides o;
    o.gradApi = value;
    return o;
}

void checkOk(const Outcome& o)
{
    INFO(o.diagnostic());
    INFO(o.err);
    CHECK(o.result.status == RunStatus::Ok);
}

} // namespace

TEST_CASE("has_aux forced on differentiates output 0 only, whatever the script says")
{
    checkOk(runWith(R"PY(
(loss, z), (gw, gb) = ms.value_and_grad(f, None, params)(x, y)   # written without has_aux
assert close(loss, loss_v) and close(z, zv)
assert close(gw, aux_dw) and close(gb, aux_db), (gw, gb)
grads, aux = ms.grad(f, None, params)(x, y)                      # grad returns (grads, aux)
assert isinstance(aux, tuple) and len(aux) == 1 and close(aux[0], zv)
assert close(grads[0], aux_dw) and close(grads[1], aux_db)
(loss, z), (gw, gb) = ops.value_and_grad(f, None, params, has_aux=True)(x, y)
assert close(gb, aux_db)
)PY",
                    hasAux(HasAuxOverride::On)));
}

TEST_CASE("has_aux forced off differentiates the sum of all outputs, whatever the script says")
{
    checkOk(runWith(R"PY(
(loss, z), (gw, gb) = ms.value_and_grad(f, None, params, has_aux=True)(x, y)
assert close(loss, loss_v) and close(z, zv)
assert close(gw, sum_dw) and close(gb, sum_db), (gw, gb)
gw, gb = ms.grad(f, None, params, has_aux=True)(x, y)             # no aux part any more
assert close(gw, sum_dw) and close(gb, sum_db)
)PY",
                    hasAux(HasAuxOverride::Off)));
}

TEST_CASE("has_aux forced on with a single-output function raises MindSpore's has_aux error")
{
    const Outcome o = runWith("ms.value_and_grad(single, None, params)(x, y)\n",
                              hasAux(HasAuxOverride::On));
    REQUIRE(o.result.status == RunStatus::Error);
    REQUIRE(o.result.diagnostic);
    CHECK(o.result.diagnostic->type == "ValueError");
    CHECK_THAT(o.result.diagnostic->message, Catch::Contains("has_aux"));
}

TEST_CASE("the overrides last for their run only")
{
    const std::string body = R"PY(
(loss, z), (gw, gb) = ms.value_and_grad(f, None, params)(x, y)
assert close(gb, sum_db)
)PY";
    CHECK(runWith(body, hasAux(HasAuxOverride::On)).result.status == RunStatus::Error);
    checkOk(runWith(body, RunOverrides{}));
}

TEST_CASE("the grad-only fallback gives value_and_grad's results and runs the forward twice")
{
    const std::string body = R"PY(
loss, (gw, gb) = ms.value_and_grad(single, None, params)(x, y)
assert close(loss, loss_v) and close(gw, aux_dw) and close(gb, aux_db)
)PY";
    Counter written, fallback;
    checkOk(runWith(body, RunOverrides{}, &written));
    checkOk(runWith(body, gradApi(GradApiOverride::GradFallback), &fallback));
    CHECK(written.forwardMatMuls == 1);
    CHECK(fallback.forwardMatMuls == 2);
    CHECK(written.gradCalls == 1);
    CHECK(fallback.gradCalls == 1);
    CHECK(written.callsWithValue == 1);
    CHECK(fallback.callsWithValue == 0); // the gradients come from a grad-only call
}

TEST_CASE("the grad-only fallback keeps value_and_grad's structure with has_aux and positions")
{
    checkOk(runWith(R"PY(
(loss, z), (gw, gb) = ms.value_and_grad(f, None, params, has_aux=True)(x, y)
assert close(loss, loss_v) and close(z, zv) and close(gw, aux_dw) and close(gb, aux_db)
v, g = ops.value_and_grad(single)(x, y)
assert close(v, loss_v) and close(g, dx)
v, (gx, (gw, gb)) = ms.value_and_grad(single, 0, params)(x, y)
assert close(gx, dx) and close(gw, aux_dw)
g = ms.grad(single, None, params)(x, y)                 # grad-only calls are left alone
assert close(g[1], aux_db)
)PY",
                    gradApi(GradApiOverride::GradFallback)));
}

TEST_CASE("the value_and_grad override runs grad-only calls through value_and_grad")
{
    const std::string body = R"PY(
gw, gb = ms.grad(single, None, params)(x, y)
assert close(gw, aux_dw) and close(gb, aux_db)
assert close(ops.grad(single)(x, y), dx)
grads, (z,) = ms.grad(f, None, params, has_aux=True)(x, y)
assert close(grads[1], aux_db) and close(z, zv)
ids = ms.grad(single, 0, params, return_ids=True)(x, y)
assert close(ms.get_grad(ids, b), aux_db) and close(ms.get_grad(ids, 0), dx)
assert close(ops.GradOperation()(single)(x, y), dx)
gx, gy = ops.GradOperation(get_all=True)(single)(x, y)
assert close(gx, dx) and close(gy, zv)
one = ops.GradOperation(get_all=True)(lambda x: (x * x).sum())(x)
assert isinstance(one, tuple) and len(one) == 1 and close(one[0], 2 * xv)
gw, gb = ops.GradOperation(get_by_list=True)(single, params)(x, y)
assert close(gb, aux_db)
(gx, gy), (gw, gb) = ops.GradOperation(get_all=True, get_by_list=True)(single, params)(x, y)
assert close(gx, dx) and close(gw, aux_dw)
sens = Tensor(np.array(3.0, np.float32))
assert close(ops.GradOperation(sens_param=True)(single)(x, y, sens), 3 * dx)
)PY";
    Counter written, viaValue;
    checkOk(runWith(body, RunOverrides{}, &written));
    checkOk(runWith(body, gradApi(GradApiOverride::ValueAndGrad), &viaValue));
    CHECK(written.gradCalls == 10);
    CHECK(viaValue.gradCalls == 10);
    CHECK(written.callsWithValue == 0);
    CHECK(viaValue.callsWithValue == 10); // one forward each, and the value is observable
    CHECK(viaValue.forwardMatMuls == written.forwardMatMuls);
}
