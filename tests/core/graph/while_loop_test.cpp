// While loops in the IR (core/graph/control_flow.cpp, executor.cpp, autodiff.cpp): gradients
// through a loop (a WhileGrad node) agree with the PyNative grad API over the same loop written in
// C++ (1e-9, float64) and with central differences, for a loop that doubles until a threshold, a
// loop over a tensor counter with weights used in the body, zero iterations and a nested loop;
// the bound's error names the loop's source line; events report body nodes per iteration.
// SPDX-License-Identifier: MIT
#include "graph/autodiff.h"

#include "api/grad.h"
#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "graph/dot_export.h"
#include "graph/executor.h"
#include "graph/text_format.h"
#include "graph/text_parser.h"
#include "ops/ops.h"
#include "passes/pipeline.h"
#include "tests/core/ops/gradcheck.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

double worstRelative(const Tensor& a, const Tensor& b)
{
    REQUIRE(a.shape() == b.shape());
    double worst = 0;
    for (std::int64_t i = 0; i < a.numel(); ++i)
        worst = std::max(worst, std::abs(a.at(i) - b.at(i)) / std::max(1.0, std::abs(b.at(i))));
    return worst;
}

// while sum(v) < 10: v = v * 2, then sum(v * v * s).
const char* const kDoubling = "graph @doubling(%x : f64[3], %s : f64[3]) {\n"
                              "  %0 : f64[3] = While(%x) {max_iterations=50} # loop.py:4:5\n"
                              "    cond(%v : f64[3]) {\n"
                              "      %1 : f64[] = constant 10.0\n"
                              "      %2 : f64[] = ReduceSum(%v)\n"
                              "      %3 : bool[] = Less(%2, %1)\n"
                              "      return %3\n"
                              "    }\n"
                              "    body(%v : f64[3]) {\n"
                              "      %4 : f64[] = constant 2.0\n"
                              "      %5 : f64[3] = Mul(%v, %4)\n"
                              "      return %5\n"
                              "    }\n"
                              "  %6 : f64[3] = Mul(%0, %0)\n"
                              "  %7 : f64[3] = Mul(%6, %s)\n"
                              "  %8 : f64[] = ReduceSum(%7)\n"
                              "  return %8\n"
                              "}\n";

// i = 0; while i < n: h = tanh(h @ w + b); i = i + 1, then sum(h * h): a tensor counter, weights
// used in the body (carried unchanged) and an integer loop variable without gradient.
const char* const kCounter = "graph @counter(%h : f64[1, 3], %w : f64[3, 3], %b : f64[3], "
                             "%n : i64[]) {\n"
                             "  %i0 : i64[] = constant 0\n"
                             "  %0 : f64[1, 3], %1 : f64[3, 3], %2 : f64[3], %3 : i64[], "
                             "%4 : i64[] = While(%h, %w, %b, %i0, %n) {max_iterations=20}\n"
                             "    cond(%a : f64[1, 3], %c : f64[3, 3], %d : f64[3], %i : i64[], "
                             "%m : i64[]) {\n"
                             "      %5 : bool[] = Less(%i, %m)\n"
                             "      return %5\n"
                             "    }\n"
                             "    body(%a : f64[1, 3], %c : f64[3, 3], %d : f64[3], %i : i64[], "
                             "%m : i64[]) {\n"
                             "      %one : i64[] = constant 1\n"
                             "      %6 : f64[1, 3] = MatMul(%a, %c)\n"
                             "      %7 : f64[1, 3] = Add(%6, %d)\n"
                             "      %8 : f64[1, 3] = Tanh(%7)\n"
                             "      %9 : i64[] = Add(%i, %one)\n"
                             "      return %8, %c, %d, %9, %m\n"
                             "    }\n"
                             "  %10 : f64[1, 3] = Mul(%0, %0)\n"
                             "  %11 : f64[] = ReduceSum(%10)\n"
                             "  return %11\n"
                             "}\n";

Tensor doublingEager(const Tensor& x, const Tensor& s)
{
    Tensor v = x;
    for (int guard = 0; reduceSum(v).at(0) < 10.0 && guard < 50; ++guard)
        v = mul(v, Tensor::scalar(2.0, DType::Float64));
    return reduceSum(mul(mul(v, v), s));
}

Tensor counterEager(const Tensor& h0, const Tensor& w, const Tensor& b, std::int64_t n)
{
    Tensor h = h0;
    for (std::int64_t i = 0; i < n; ++i)
        h = tanh(add(matmul(h, w), b));
    return reduceSum(mul(h, h));
}

// Central differences of f with respect to input k.
Tensor numericGradient(const std::function<double(const TensorList&)>& f, TensorList inputs,
                       std::size_t k)
{
    constexpr double kStep = 1e-6;
    std::vector<double> base = inputs[k].toDoubles(), grads(base.size());
    for (std::size_t i = 0; i < base.size(); ++i) {
        std::vector<double> moved = base;
        moved[i] = base[i] + kStep;
        inputs[k] = Tensor::fromDoubles(inputs[k].shape(), moved, DType::Float64);
        const double up = f(inputs);
        moved[i] = base[i] - kStep;
        inputs[k] = Tensor::fromDoubles(inputs[k].shape(), moved, DType::Float64);
        grads[i] = (up - f(inputs)) / (2 * kStep);
    }
    return Tensor::fromDoubles(inputs[k].shape(), grads, DType::Float64);
}

Graph gradientOf(const Graph& forward, std::vector<std::size_t> positions)
{
    GradientSpec spec;
    for (std::size_t p : positions)
        spec.wrt.push_back(forward.inputs()[p]);
    return gradientGraph(forward, spec);
}

struct NodeCounter : ExecutionObserver {
    std::map<std::string, int> started;
    void nodeStarted(const NodeEvent& e) override { ++started[std::string(e.op->name)]; }
    void nodeFinished(const NodeEvent&) override {}
};

} // namespace

TEST_CASE("a loop that doubles until a threshold differentiates like PyNative and differences")
{
    const Graph forward = parseGraph(kDoubling, "loop.ir");
    const Graph gradient = gradientOf(forward, {0, 1});
    const Graph optimised = runPipeline(gradient, defaultPipeline()).graph;
    // 0.2+0.3+0.4 = 0.9 doubles 4 times (14.4); 3, 4, 5 not at all; 1, 2, 3 once.
    for (const auto& xs : {std::vector<double>{0.2, 0.3, 0.4}, std::vector<double>{3, 4, 5},
                           std::vector<double>{1, 2, 3}}) {
        const Tensor x = values({3}, xs), s = values({3}, {0.5, -1.5, 2.0});
        const Value expected = grad(
            [](const std::vector<Value>& v) -> Value {
                return doublingEager(v[0].tensor(), v[1].tensor());
            },
            std::vector<std::int64_t>{0, 1})({x, s});
        for (const Graph* g : {&gradient, &optimised}) {
            const TensorList got = executeGraph(*g, TensorList{x, s});
            CHECK(worstRelative(got[0], doublingEager(x, s)) <= 1e-12);
            CHECK(worstRelative(got[1], expected[0].tensor()) <= 1e-9);
            CHECK(worstRelative(got[2], expected[1].tensor()) <= 1e-9);
        }
        const auto f = [](const TensorList& in) { return doublingEager(in[0], in[1]).at(0); };
        const TensorList got = executeGraph(gradient, TensorList{x, s});
        CHECK(worstRelative(got[1], numericGradient(f, {x, s}, 0)) <= 1e-6);
        CHECK(worstRelative(got[2], numericGradient(f, {x, s}, 1)) <= 1e-6);
    }
}

TEST_CASE("a loop over a tensor counter with weights in its body differentiates like PyNative")
{
    const Graph forward = parseGraph(kCounter, "counter.ir");
    const Graph gradient = gradientOf(forward, {0, 1, 2});
    const Graph optimised = runPipeline(gradient, defaultPipeline()).graph;
    const Tensor h = sample({1, 3}, -1, 1, 1), w = sample({3, 3}, -0.8, 0.8, 2),
                 b = sample({3}, -0.3, 0.3, 3);
    for (std::int64_t n : {0, 1, 4}) {
        INFO(n << " iterations");
        const Tensor count = Tensor::scalar(static_cast<double>(n), DType::Int64);
        const Value expected = grad(
            [n](const std::vector<Value>& v) -> Value {
                return counterEager(v[0].tensor(), v[1].tensor(), v[2].tensor(), n);
            },
            std::vector<std::int64_t>{0, 1, 2})({h, w, b});
        const auto f = [n](const TensorList& in) {
            return counterEager(in[0], in[1], in[2], n).at(0);
        };
        for (const Graph* g : {&gradient, &optimised}) {
            const TensorList got = executeGraph(*g, TensorList{h, w, b, count});
            REQUIRE(got.size() == 4);
            CHECK(worstRelative(got[0], counterEager(h, w, b, n)) <= 1e-12);
            for (std::size_t k = 0; k < 3; ++k) {
                INFO("input " << k);
                CHECK(worstRelative(got[1 + k], expected[k].tensor()) <= 1e-9);
                CHECK(worstRelative(got[1 + k], numericGradient(f, {h, w, b}, k)) <= 1e-6);
            }
        }
        if (n == 0) { // zero iterations: the loop is the identity, w and b get no gradient
            const TensorList got = executeGraph(gradient, TensorList{h, w, b, count});
            CHECK(worstRelative(got[1], mul(h, Tensor::scalar(2.0, DType::Float64))) == 0);
            CHECK(got[2].toDoubles() == std::vector<double>(9, 0.0));
        }
    }
}

TEST_CASE("a loop inside a loop body differentiates through both levels")
{
    // while sum(v) < 40: { u = v; while max(u) < 3: u = u * 1.5; v = u + v }, then sum(v * v)
    const Graph forward = parseGraph("graph @nested(%x : f64[2]) {\n"
                                     "  %0 : f64[2] = While(%x) {max_iterations=30}\n"
                                     "    cond(%v : f64[2]) {\n"
                                     "      %1 : f64[] = constant 40.0\n"
                                     "      %2 : f64[] = ReduceSum(%v)\n"
                                     "      %3 : bool[] = Less(%2, %1)\n"
                                     "      return %3\n"
                                     "    }\n"
                                     "    body(%v : f64[2]) {\n"
                                     "      %4 : f64[2] = While(%v) {max_iterations=30}\n"
                                     "        cond(%u : f64[2]) {\n"
                                     "          %5 : f64[] = constant 3.0\n"
                                     "          %6 : f64[] = ReduceMax(%u)\n"
                                     "          %7 : bool[] = Less(%6, %5)\n"
                                     "          return %7\n"
                                     "        }\n"
                                     "        body(%u : f64[2]) {\n"
                                     "          %8 : f64[] = constant 1.5\n"
                                     "          %9 : f64[2] = Mul(%u, %8)\n"
                                     "          return %9\n"
                                     "        }\n"
                                     "      %10 : f64[2] = Add(%4, %v)\n"
                                     "      return %10\n"
                                     "    }\n"
                                     "  %11 : f64[2] = Mul(%0, %0)\n"
                                     "  %12 : f64[] = ReduceSum(%11)\n"
                                     "  return %12\n"
                                     "}\n",
                                     "nested.ir");
    const auto eager = [](const Tensor& x) {
        Tensor v = x;
        while (reduceSum(v).at(0) < 40.0) {
            Tensor u = v;
            while (reduceMax(u).at(0) < 3.0)
                u = mul(u, Tensor::scalar(1.5, DType::Float64));
            v = add(u, v);
        }
        return reduceSum(mul(v, v));
    };
    const Tensor x = values({2}, {0.7, 1.1});
    const Value expected =
        grad([&](const std::vector<Value>& v) -> Value { return eager(v[0].tensor()); })({x});
    const TensorList got = executeGraph(gradientOf(forward, {0}), TensorList{x});
    CHECK(worstRelative(got[0], eager(x)) <= 1e-12);
    CHECK(worstRelative(got[1], expected.tensor()) <= 1e-9);
    const auto f = [&](const TensorList& in) { return eager(in[0]).at(0); };
    CHECK(worstRelative(got[1], numericGradient(f, {x}, 0)) <= 1e-6);
}

TEST_CASE("a while gradient prints, parses and exports to DOT, and has no second order")
{
    const Graph gradient = gradientOf(parseGraph(kDoubling, "loop.ir"), {0});
    const std::string text = printGraph(gradient);
    CHECK_THAT(text, Catch::Contains("= WhileGrad(") && Catch::Contains("    grad(")
                         && Catch::Contains("[backward]"));
    CHECK(printGraph(parseGraph(text, "printed.ir")) == text);
    const std::string dot = exportDot(gradient, {});
    CHECK_THAT(dot, Catch::Contains("label=\"WhileGrad\"") && Catch::Contains("label=\"grad\"")
                        && Catch::Contains("label=\"body\""));
    CHECK_THROWS_WITH(gradientOf(gradient, {0}), Catch::Contains("cannot be differentiated again"));
}

TEST_CASE("the iteration bound's error names the loop's source line")
{
    const Tensor x = values({3}, {0.001, 0.001, 0.001});
    const Graph forward = parseGraph(kDoubling, "loop.ir");
    // 0.003 needs 12 doublings to reach 10; a bound of 5 stops it.
    std::string text = kDoubling;
    text.replace(text.find("max_iterations=50"), 17, "max_iterations=5");
    const Graph bounded = parseGraph(text, "bounded.ir");
    CHECK(executeGraph(forward, TensorList{x, x})[0].at(0) > 0);
    CHECK_THROWS_WITH(executeGraph(bounded, TensorList{x, x}),
                      Catch::StartsWith("loop.py:4:5: the while loop")
                          && Catch::Contains("exceeded its bound of 5 iterations"));
    CHECK_THROWS_AS(executeGraph(gradientOf(bounded, {0}), TensorList{x, x}), RuntimeError);
}

TEST_CASE("a running loop reports its body's nodes once per iteration")
{
    const Graph forward = parseGraph(kDoubling, "loop.ir");
    const Graph gradient = gradientOf(forward, {0});
    NodeCounter counter;
    {
        ObserverGuard attach(&counter);
        executeGraph(gradient, TensorList{values({3}, {0.2, 0.3, 0.4}), values({3}, {1, 1, 1})});
    }
    // Four iterations: the condition runs five times; the forward replay inside WhileGrad is
    // not reported, the body's gradient runs four times (its Mul and the gradient's Mul).
    CHECK(counter.started["While"] == 1);
    CHECK(counter.started["WhileGrad"] == 1);
    CHECK(counter.started["Less"] == 5);
    CHECK(counter.started["ReduceSum"] >= 6); // five conditions and the loss
    CHECK(counter.started["Mul"] >= 4 + 4 + 2);
}
