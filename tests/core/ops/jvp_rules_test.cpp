// Every forward-mode rule against the double vjp of its op and against float64 central
// differences, over the gradient-check table (gradcheck.h: every differentiable op has a case).
// SPDX-License-Identifier: MIT
#include "api/jvp_tracer.h"
#include "ops/jvp/jvp_rules.h"
#include "ops/ops.h"
#include "ops/registry.h"
#include "tests/core/ops/gradcheck.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

constexpr double kStep = 1e-6;
constexpr double kDifferenceTolerance = 1e-6;
constexpr double kExactTolerance = 1e-10;

TensorList cloneAll(const TensorList& inputs)
{
    TensorList out;
    for (const Tensor& t : inputs)
        out.push_back(t.clone());
    return out;
}

/// One direction per float64 input (the others are held constant, as in the gradient check).
TensorList directionsFor(const TensorList& inputs)
{
    TensorList v;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        v.push_back(inputs[i].dtype() == DType::Float64
                        ? sample(inputs[i].shape(), -1.0, 1.0, static_cast<unsigned>(31 + i))
                        : Tensor());
    return v;
}

struct Installed {
    JvpTracer& tracer;
    explicit Installed(JvpTracer& t) : tracer(t) { tracer.install(); }
    ~Installed() { tracer.uninstall(); }
};

/// fn's output tangent at `inputs` in the directions `v`, by rules or by every op's double vjp.
Tensor tangentOf(const GradCheckCase& c, const TensorList& v, bool useRules)
{
    JvpTracer tracer(useRules);
    Tensor out;
    {
        Installed installed(tracer);
        TensorList in = cloneAll(c.inputs);
        for (std::size_t i = 0; i < in.size(); ++i)
            if (v[i].defined())
                in[i] = tracer.seed(in[i], v[i]);
        out = c.fn(in);
    }
    const std::optional<Tensor> t = tracer.tangent(out);
    return t ? *t : Tensor::zeros(out.shape(), out.dtype());
}

/// (f(x + h v) - f(x - h v)) / 2h, element by element.
std::vector<double> differences(const GradCheckCase& c, const TensorList& v)
{
    const auto& f = c.reference ? c.reference : c.fn;
    TensorList plus = cloneAll(c.inputs), minus = cloneAll(c.inputs);
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].defined())
            continue;
        for (std::int64_t k = 0; k < v[i].numel(); ++k) {
            plus[i].data<double>()[k] += kStep * v[i].at(k);
            minus[i].data<double>()[k] -= kStep * v[i].at(k);
        }
    }
    const Tensor a = f(plus), b = f(minus);
    std::vector<double> d;
    for (std::int64_t k = 0; k < a.numel(); ++k)
        d.push_back((a.at(k) - b.at(k)) / (2 * kStep));
    return d;
}

double worstError(const Tensor& t, const std::vector<double>& expected, std::string& where)
{
    double worst = 0.0;
    for (std::int64_t k = 0; k < t.numel(); ++k) {
        const double e = expected[static_cast<std::size_t>(k)];
        const double err = std::abs(t.at(k) - e) / std::max(1.0, std::abs(e));
        if (err > worst) {
            worst = err;
            where = "element " + std::to_string(k) + ": " + std::to_string(t.at(k)) + " vs " + std::to_string(e);
        }
    }
    return worst;
}

std::vector<double> valuesOf(const Tensor& t) { return t.toDoubles(); }

} // namespace

TEST_CASE("forward-mode rules agree with their op's double vjp and with central differences")
{
    std::size_t checked = 0;
    for (const GradCheckCase& c : gradCheckCases()) {
        const OpDef* op = OpRegistry::instance().find(c.op);
        if (!op || !findJvpRule(*op))
            continue;
        ++checked;
        DYNAMIC_SECTION(c.op << ": " << c.name)
        {
            const TensorList v = directionsFor(c.inputs);
            const JvpStats before = jvpStats();
            const Tensor byRule = tangentOf(c, v, true);
            CHECK(jvpStats().ruleOps > before.ruleOps);
            const Tensor byVjp = tangentOf(c, v, false);
            REQUIRE(byRule.shape() == byVjp.shape());
            REQUIRE(byRule.dtype() == DType::Float64);
            std::string where;
            const double exact = worstError(byRule, valuesOf(byVjp), where);
            INFO("against the double vjp, worst at " << where);
            CHECK(exact <= kExactTolerance);
            std::string whereFd;
            const double numeric = worstError(byRule, differences(c, v), whereFd);
            INFO("against central differences, worst at " << whereFd);
            CHECK(numeric <= kDifferenceTolerance);
        }
    }
    CHECK(checked > 60);
}

TEST_CASE("every op with a forward-mode rule has a gradient-check case to test it")
{
    std::set<std::string> covered;
    for (const GradCheckCase& c : gradCheckCases())
        covered.insert(c.op);
    for (const OpDef* op : OpRegistry::instance().ops()) {
        if (!findJvpRule(*op))
            continue;
        INFO("op " << op->name);
        CHECK(covered.count(std::string(op->name)) == 1);
    }
}

TEST_CASE("the op listing says how jvp pushes tangents through each op")
{
    const std::string dump = "\n" + OpRegistry::instance().dump();
    const auto line = [&](const std::string& name) {
        const std::size_t at = dump.find("\n" + name + "\t");
        REQUIRE(at != std::string::npos);
        return dump.substr(at + 1, dump.find('\n', at + 1) - at - 1);
    };
    CHECK(line("MatMul").find("jvp=rule") != std::string::npos);
    CHECK(line("Conv2D").find("jvp=rule") != std::string::npos);
    CHECK(line("LayerNorm").find("jvp=vjp") != std::string::npos);
    CHECK(line("Equal").find("jvp=none") != std::string::npos);
}
