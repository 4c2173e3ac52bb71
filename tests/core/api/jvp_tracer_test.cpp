// Forward mode end to end: closed forms, the fallback, gradients of and inside jvp, and the
// tangent events the debugger records. SPDX-License-Identifier: MIT
#include "api/jvp_tracer.h"
#include "autodiff/observer.h"
#include "ops/norm_ops.h"
#include "ops/ops.h"
#include "tests/core/api/api_test_util.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

struct Installed {
    JvpTracer& tracer;
    explicit Installed(JvpTracer& t) : tracer(t) { tracer.install(); }
    ~Installed() { tracer.uninstall(); }
};

void requireValues(const Tensor& t, const std::vector<double>& expected, double margin = 1e-12)
{
    REQUIRE(t.numel() == static_cast<std::int64_t>(expected.size()));
    for (std::size_t i = 0; i < expected.size(); ++i)
        CHECK(t.at(static_cast<std::int64_t>(i)) == Approx(expected[i]).margin(margin));
}

/// Records the order of node and tangent events and each node's output tangent.
class TangentLog final : public ExecutionObserver {
public:
    void nodeStarted(const NodeEvent&) override {}
    void nodeFinished(const NodeEvent& e) override { events.push_back("finished #" + std::to_string(e.seq)); }
    void nodeTangents(const TangentEvent& e) override
    {
        events.push_back("tangents #" + std::to_string(e.seq) + " " + std::string(e.op->name));
        outputs.push_back(e.outputTangents[0].clone());
    }
    std::vector<std::string> events;
    std::vector<Tensor> outputs;
};

} // namespace

TEST_CASE("jvp of tanh(x W) is (1 - y^2) (dx W + x dW)")
{
    const Tensor x = f64({1, 2}, {0.5, -1.0});
    const Tensor w = f64({2, 2}, {1.0, 2.0, -0.5, 0.25});
    const Tensor dx = f64({1, 2}, {1.0, 0.0});
    const Tensor dw = f64({2, 2}, {0.0, 1.0, 1.0, 0.0});
    JvpTracer tracer;
    Tensor y;
    {
        Installed installed(tracer);
        y = tanh(matmul(tracer.seed(x, dx), tracer.seed(w, dw)));
    }
    // x W = [1, 0.75]; dx W + x dW = [1, 2] + [-1, 0.5] = [0, 2.5]
    const double t0 = std::tanh(1.0), t1 = std::tanh(0.75);
    requireValues(y, {t0, t1});
    const std::optional<Tensor> dy = tracer.tangent(y);
    REQUIRE(dy.has_value());
    requireValues(*dy, {0.0, (1 - t1 * t1) * 2.5});
}

TEST_CASE("an op without a forward-mode rule is pushed forward by its own double vjp")
{
    const Tensor x = f64({2, 3}, {0.1, 0.7, -0.4, 1.5, -2.0, 0.3});
    const Tensor dx = f64({2, 3}, {1.0, -1.0, 0.5, 0.0, 2.0, -0.5});
    const Tensor gamma = f64({3}, {1.0, 2.0, 0.5});
    const Tensor beta = f64({3}, {0.0, 0.1, -0.1});
    const auto f = [&](const Tensor& in) { return layerNorm(in, gamma, beta, 1, 1, 1e-5)[0]; };
    JvpTracer tracer;
    const JvpStats before = jvpStats();
    Tensor y;
    {
        Installed installed(tracer);
        y = f(tracer.seed(x, dx));
    }
    CHECK(jvpStats().fallbackOps == before.fallbackOps + 1);
    const std::optional<Tensor> dy = tracer.tangent(y);
    REQUIRE(dy.has_value());
    const double h = 1e-6;
    const Tensor plus = f(add(x, mul(dx, Tensor::scalar(h, DType::Float64))));
    const Tensor minus = f(sub(x, mul(dx, Tensor::scalar(h, DType::Float64))));
    for (std::int64_t i = 0; i < y.numel(); ++i)
        CHECK(dy->at(i) == Approx((plus.at(i) - minus.at(i)) / (2 * h)).margin(1e-7));
}

TEST_CASE("grad of a jvp through an op without a forward rule matches central differences")
{
    // LayerNorm's backward reads its saved mean and variance (outputs 1 and 2): the enclosing
    // gradient must still see them as functions of x.
    const Tensor x = f64({2, 3}, {0.1, 0.7, -0.4, 1.5, -2.0, 0.3});
    const Tensor v = f64({2, 3}, {1.0, -1.0, 0.5, 0.0, 2.0, -0.5});
    const Tensor gamma = f64({3}, {1.0, 2.0, 0.5});
    const Tensor beta = f64({3}, {0.0, 0.1, -0.1});
    const auto squaredTangent = [&](const Tensor& in) {
        JvpTracer tracer;
        Tensor y;
        {
            Installed installed(tracer);
            y = sigmoid(layerNorm(tracer.seed(in, v), gamma, beta, 1, 1, 1e-5)[0]);
        }
        const Tensor t = *tracer.tangent(y);
        return reduceSum(mul(t, t));
    };
    Function f = [&](const std::vector<Value>& args) -> Value { return squaredTangent(args[0].tensor()); };
    const Tensor g = grad(f)({Value(x)}).tensor();
    const double h = 1e-6;
    for (std::int64_t i = 0; i < x.numel(); ++i) {
        Tensor plus = x.clone(), minus = x.clone();
        plus.data<double>()[i] += h;
        minus.data<double>()[i] -= h;
        const double numeric = (squaredTangent(plus).item() - squaredTangent(minus).item()) / (2 * h);
        CHECK(g.at(i) == Approx(numeric).margin(1e-6));
    }
}

TEST_CASE("stop_gradient cuts the tangent while its input keeps its own")
{
    const Tensor x = f64({2}, {1.0, 2.0});
    JvpTracer tracer;
    Tensor seeded, stopped, y;
    {
        Installed installed(tracer);
        seeded = tracer.seed(x, f64({2}, {1.0, 1.0}));
        stopped = stopGradient(seeded);
        y = add(mul(seeded, seeded), stopped);
    }
    CHECK_FALSE(tracer.tangent(stopped).has_value());
    requireValues(*tracer.tangent(y), {2.0, 4.0});
}

TEST_CASE("grad of jvp and jvp of grad: d/dx <jvp(x^3), 1> = 6 x v and the Hessian-vector product")
{
    const Tensor x = f64({3}, {1.0, -2.0, 0.5});
    const Tensor v = f64({3}, {1.0, 0.5, -2.0});
    SECTION("grad of jvp")
    {
        Function f = [&](const std::vector<Value>& args) -> Value {
            JvpTracer tracer;
            Tensor y;
            {
                Installed installed(tracer);
                const Tensor s = tracer.seed(args[0].tensor(), v);
                y = mul(mul(s, s), s);
            }
            return reduceSum(*tracer.tangent(y));
        };
        requireTensor(grad(f)({Value(x)}), {3}, {6.0 * 1.0 * 1.0, 6.0 * -2.0 * 0.5, 6.0 * 0.5 * -2.0}, 1e-12);
    }
    SECTION("jvp of grad (f = sum x^3, H = diag(6x))")
    {
        Function f = [](const std::vector<Value>& args) -> Value {
            const Tensor& a = args[0].tensor();
            return reduceSum(mul(mul(a, a), a));
        };
        JvpTracer tracer;
        Value g;
        {
            Installed installed(tracer);
            g = grad(f)({Value(tracer.seed(x, v))});
        }
        requireValues(g.tensor(), {3.0, 12.0, 0.75});
        requireValues(*tracer.tangent(g.tensor()), {6.0, -6.0, -6.0});
    }
}

TEST_CASE("the observer receives each forward node's tangents just before the node finishes")
{
    TangentLog log;
    ObserverGuard observe(&log);
    JvpTracer tracer;
    const std::uint64_t first = executionContext().nextSeq;
    {
        Installed installed(tracer);
        const Tensor s = tracer.seed(f64({2}, {1.0, 3.0}), f64({2}, {1.0, -1.0}));
        exp(mul(s, Tensor::scalar(2.0, DType::Float64)));
    }
    // The tangent ops take numbers of their own (and emit no events): Exp's number comes later.
    REQUIRE(log.events.size() == 4);
    const std::string a = std::to_string(first);
    CHECK(log.events[0] == "tangents #" + a + " Mul");
    CHECK(log.events[1] == "finished #" + a);
    const std::string b = log.events[3].substr(std::string("finished #").size());
    CHECK(std::stoull(b) > first);
    CHECK(log.events[2] == "tangents #" + b + " Exp");
    REQUIRE(log.outputs.size() == 2);
    requireValues(log.outputs[0], {2.0, -2.0});
    requireValues(log.outputs[1], {2.0 * std::exp(2.0), -2.0 * std::exp(6.0)}, 1e-9);
}
