// Tests of graph autodiff (core/graph/autodiff.cpp): executing the gradient graph gives the
// gradients the PyNative grad API gives, for every gradient-check case of every op, first and
// second order, in float64 at 1e-9 relative. SPDX-License-Identifier: MIT
#include "graph/autodiff.h"

#include "api/grad.h"
#include "graph/executor.h"
#include "graph/text_format.h"
#include "graph/tracer.h"
#include "ops/ops.h"
#include "tests/core/ops/gradcheck.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

constexpr double kTolerance = 1e-9;

double worstRelative(const Tensor& a, const Tensor& b)
{
    REQUIRE(a.shape() == b.shape());
    double worst = 0;
    for (std::int64_t i = 0; i < a.numel(); ++i)
        worst = std::max(worst, std::abs(a.at(i) - b.at(i)) / std::max(1.0, std::abs(b.at(i))));
    return worst;
}

std::vector<TracedInput> tracedInputs(const TensorList& inputs)
{
    std::vector<TracedInput> traced;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        traced.push_back({"x" + std::to_string(i), {inputs[i].shape(), inputs[i].dtype()}});
    return traced;
}

std::vector<std::int64_t> floatPositions(const TensorList& inputs)
{
    std::vector<std::int64_t> positions;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        if (isFloating(inputs[i].dtype()))
            positions.push_back(static_cast<std::int64_t>(i));
    return positions;
}

TensorList asList(const Value& v, std::size_t count)
{
    if (count == 1 && v.isTensor())
        return {v.tensor()};
    TensorList out;
    for (std::size_t k = 0; k < count; ++k)
        out.push_back(v[k].tensor());
    return out;
}

// Appends sum_k <grad_k, direction_k> over the gradient outputs of `g` as its only output.
Graph directional(Graph g, std::size_t gradients, const TensorList& directions)
{
    {
        GraphTracer tracer(g);
        Tensor total = Tensor::zeros(Shape{}, DType::Float64);
        const std::size_t first = g.outputs().size() - gradients;
        for (std::size_t k = 0; k < gradients; ++k)
            total = add(total, reduceSum(mul(tracer.bind(g.outputs()[first + k]), directions[k])));
        g.setOutputs({tracer.valueOf(total)});
    }
    return g;
}

// One gradient-check case as a scalar function (weighted by a fixed non-uniform cotangent), both
// as a PyNative Function and as a traced graph.
struct CaseUnderTest {
    const GradCheckCase& c;
    Tensor weight;
    std::vector<std::int64_t> positions;
    std::vector<Value> args;

    explicit CaseUnderTest(const GradCheckCase& gc)
        : c(gc), weight(sample(gc.fn(gc.inputs).shape(), 0.5, 1.5, 7)),
          positions(floatPositions(gc.inputs)), args(gc.inputs.begin(), gc.inputs.end())
    {
    }
    Tensor scalar(const TensorList& x) const { return reduceSum(mul(c.fn(x), weight)); }
    Function function() const
    {
        return [this](const std::vector<Value>& a) -> Value {
            TensorList in;
            for (const Value& v : a)
                in.push_back(v.tensor());
            return scalar(in);
        };
    }
    GradientSpec spec(const Graph& forward) const
    {
        GradientSpec s;
        for (std::int64_t p : positions)
            s.wrt.push_back(forward.inputs()[static_cast<std::size_t>(p)]);
        return s;
    }
};

// g(x) = sum_k <grad_k f(x), direction_k> by PyNative's grad of grad.
TensorList pynativeSecondOrder(const CaseUnderTest& t, const TensorList& directions)
{
    const Function f = t.function();
    Function g = [&](const std::vector<Value>& a) -> Value {
        const TensorList first = asList(grad(f, t.positions)(a), t.positions.size());
        Tensor total = Tensor::zeros(Shape{}, DType::Float64);
        for (std::size_t k = 0; k < t.positions.size(); ++k)
            total = add(total, reduceSum(mul(first[k], directions[k])));
        return total;
    };
    return asList(grad(g, t.positions)(t.args), t.positions.size());
}

} // namespace

TEST_CASE("graph gradients equal PyNative gradients for every gradient-check case, first and "
          "second order")
{
    for (const GradCheckCase& c : gradCheckCases()) {
        DYNAMIC_SECTION(c.op << ": " << c.name)
        {
            const CaseUnderTest t(c);
            const std::size_t n = t.positions.size();
            const TensorList expected = asList(grad(t.function(), t.positions)(t.args), n);
            const auto traced = tracedInputs(c.inputs);
            const Graph forward = traceFunction(
                "f", traced, [&](const TensorList& x) { return TensorList{t.scalar(x)}; });
            const Graph gradient = gradientGraph(forward, t.spec(forward));
            INFO(printGraph(gradient));
            const TensorList got = executeGraph(gradient, c.inputs);
            REQUIRE(got.size() == 1 + n);
            for (std::size_t k = 0; k < n; ++k)
                CHECK(worstRelative(got[1 + k], expected[k]) <= kTolerance);
            if (!c.secondOrder)
                return;
            TensorList directions;
            for (std::size_t k = 0; k < n; ++k)
                directions.push_back(
                    sample(expected[k].shape(), -1, 1, static_cast<unsigned>(11 + k)));
            const TensorList expected2 = pynativeSecondOrder(t, directions);
            const Graph second =
                gradientGraph(directional(gradient, n, directions), t.spec(forward));
            const TensorList got2 = executeGraph(second, c.inputs);
            for (std::size_t k = 0; k < n; ++k)
                CHECK(worstRelative(got2[1 + k], expected2[k]) <= kTolerance);
        }
    }
}
