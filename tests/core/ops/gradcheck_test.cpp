// Table-driven finite-difference check of every differentiable op in the registry, in float64:
// first derivatives (max relative error 1e-6) and second derivatives through grad of grad.
// SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "tests/core/ops/gradcheck.h"
#include "ops/ops.h"
#include "ops/registry.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

constexpr double kStep = 1e-6;
constexpr double kFirstOrderTolerance = 1e-6;
constexpr double kSecondOrderTolerance = 1e-5;

std::vector<std::int64_t> floatPositions(const TensorList& inputs)
{
    std::vector<std::int64_t> positions;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        if (inputs[i].dtype() == DType::Float64)
            positions.push_back(static_cast<std::int64_t>(i));
    return positions;
}

std::vector<Value> asValues(const TensorList& inputs) { return {inputs.begin(), inputs.end()}; }

TensorList cloneAll(const TensorList& inputs)
{
    TensorList out;
    for (const Tensor& t : inputs)
        out.push_back(t.clone());
    return out;
}

// |analytic - numeric| <= tol * max(1, |numeric|): relative error, absolute near zero.
double relativeError(double analytic, double numeric)
{
    return std::abs(analytic - numeric) / std::max(1.0, std::abs(numeric));
}

// Compares the gradient of scalar(inputs) with central differences; returns the worst error.
double checkAgainstDifferences(const std::function<double(const TensorList&)>& scalar, const TensorList& inputs,
                               const std::vector<std::int64_t>& positions, const Value& analytic, std::string& where)
{
    double worst = 0.0;
    for (std::size_t k = 0; k < positions.size(); ++k) {
        const Tensor& g = positions.size() == 1 && analytic.isTensor() ? analytic.tensor() : analytic[k].tensor();
        const std::size_t p = static_cast<std::size_t>(positions[k]);
        for (std::int64_t i = 0; i < inputs[p].numel(); ++i) {
            TensorList plus = cloneAll(inputs), minus = cloneAll(inputs);
            plus[p].data<double>()[i] += kStep;
            minus[p].data<double>()[i] -= kStep;
            const double numeric = (scalar(plus) - scalar(minus)) / (2 * kStep);
            const double err = relativeError(g.at(i), numeric);
            if (err > worst) {
                worst = err;
                where = "input " + std::to_string(p) + " element " + std::to_string(i) + ": analytic "
                        + std::to_string(g.at(i)) + ", numeric " + std::to_string(numeric);
            }
        }
    }
    return worst;
}

} // namespace

TEST_CASE("every differentiable op in the registry has a gradient check")
{
    std::set<std::string> covered;
    for (const auto& c : gradCheckCases())
        covered.insert(c.op);
    for (const OpDef* op : OpRegistry::instance().ops()) {
        if (!op->differentiable())
            continue;
        INFO("op " << op->name);
        CHECK(covered.count(std::string(op->name)) == 1);
    }
    for (const std::string& name : covered) {
        INFO("case names an op that is not registered: " << name);
        CHECK(OpRegistry::instance().find(name) != nullptr);
    }
}

TEST_CASE("analytic gradients match central differences in float64")
{
    for (const GradCheckCase& c : gradCheckCases()) {
        DYNAMIC_SECTION(c.op << ": " << c.name)
        {
            const auto positions = floatPositions(c.inputs);
            REQUIRE(!positions.empty());
            const Tensor out = c.fn(cloneAll(c.inputs));
            REQUIRE(out.dtype() == DType::Float64);
            // A non-uniform cotangent catches rules that only work for ones.
            const Tensor weight = sample(out.shape(), 0.5, 1.5, 7);
            const auto& numericFn = c.reference ? c.reference : c.fn;
            auto scalar = [&](const TensorList& in) { return reduceSum(mul(numericFn(in), weight)).item(); };
            Function f = [&](const std::vector<Value>& args) -> Value {
                TensorList in;
                for (const Value& a : args)
                    in.push_back(a.tensor());
                return reduceSum(mul(c.fn(in), weight));
            };
            const GradPosition gp = positions.size() == 1 ? GradPosition(positions[0]) : GradPosition(positions);
            const Value analytic = grad(f, gp)(asValues(cloneAll(c.inputs)));
            std::string where;
            const double worst = checkAgainstDifferences(scalar, c.inputs, positions, analytic, where);
            INFO("worst at " << where);
            CHECK(worst <= kFirstOrderTolerance);

            if (!c.secondOrder)
                return;
            // g(x) = <grad f(x), v>; its gradient comes from grad of grad, checked by differences of g.
            std::vector<Tensor> directions;
            for (std::size_t k = 0; k < positions.size(); ++k)
                directions.push_back(sample(c.inputs[static_cast<std::size_t>(positions[k])].shape(), -1.0, 1.0,
                                            static_cast<unsigned>(11 + k)));
            Function g = [&](const std::vector<Value>& args) -> Value {
                Value first = grad(f, gp)(args);
                Tensor total = Tensor::zeros(Shape{}, DType::Float64);
                for (std::size_t k = 0; k < positions.size(); ++k) {
                    const Tensor& gk = positions.size() == 1 ? first.tensor() : first[k].tensor();
                    total = add(total, reduceSum(mul(gk, directions[k])));
                }
                return total;
            };
            auto gScalar = [&](const TensorList& in) { return g(asValues(in)).tensor().item(); };
            // (The second-order check differentiates fn's own gradient, so it needs no reference.)
            const Value second = grad(g, gp)(asValues(cloneAll(c.inputs)));
            std::string where2;
            const double worst2 = checkAgainstDifferences(gScalar, c.inputs, positions, second, where2);
            INFO("second order, worst at " << where2);
            CHECK(worst2 <= kSecondOrderTolerance);
        }
    }
}
