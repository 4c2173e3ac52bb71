// The one driver of the text-in/text-out pass tests: tests/passes/<pass>.ir. Each case is parsed,
// run through its passes, printed and matched against its CHECK lines; the driver also checks the
// changed flag, that the result prints/parses/prints the same, and that the graph computes the
// same values before and after. SPDX-License-Identifier: MIT
#include "graph/executor.h"
#include "graph/text_format.h"
#include "graph/text_parser.h"
#include "passes/pass.h"
#include "tests/passes/ir_fixture.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

std::string fixturePath(std::string_view pass)
{
    return std::string(GRADSTEP_PASS_FIXTURES) + "/" + std::string(pass) + ".ir";
}

// Deterministic inputs: floats in [-2, 2), integers in [0, 3), alternating bools.
TensorList sampleInputs(const Graph& g)
{
    TensorList inputs;
    std::uint64_t state = 12345;
    for (ValueId id : g.inputs()) {
        const TensorSpec& spec = g.spec(id);
        std::vector<double> values(static_cast<std::size_t>(spec.shape.numel()));
        for (std::size_t i = 0; i < values.size(); ++i) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            const double u = static_cast<double>(state >> 11) / 9007199254740992.0;
            values[i] = isFloating(spec.dtype)      ? 4 * u - 2
                        : spec.dtype == DType::Bool ? double(i % 2)
                                                    : std::floor(3 * u);
        }
        inputs.push_back(Tensor::fromDoubles(spec.shape, values, spec.dtype));
    }
    return inputs;
}

void checkSameValues(const Graph& before, const Graph& after)
{
    const TensorList inputs = sampleInputs(before);
    const TensorList a = executeGraph(before, inputs);
    const TensorList b = executeGraph(after, inputs);
    REQUIRE(a.size() == b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
        REQUIRE(a[k].shape() == b[k].shape());
        for (std::int64_t i = 0; i < a[k].numel(); ++i) {
            const double x = a[k].at(i), y = b[k].at(i);
            INFO("output " << k << " element " << i);
            CHECK((x == y || (std::isnan(x) && std::isnan(y))));
        }
    }
}

void runCase(const IrCase& c, const std::string& path)
{
    const Graph input = parseGraph(c.text, path);
    Graph graph = input;
    bool changed = false;
    std::string summaries;
    for (const std::string& name : c.passes) {
        const PassInfo* pass = findPass(name);
        INFO("pass " << name);
        REQUIRE(pass != nullptr);
        PassResult r = runPassEverywhere(*pass, graph);
        graph = std::move(r.graph);
        changed = changed || r.changed;
        summaries += "summary: " + r.summary + "\n";
    }
    const std::string printed = printGraph(graph);
    const std::string output = printed + summaries;
    INFO("output:\n" << output);
    if (c.changed)
        CHECK(changed == *c.changed);
    if (c.changed && !*c.changed)
        CHECK(printed == printGraph(input));
    const std::string failure = matchChecks(output, c.checks);
    CHECK(failure == "");
    CHECK(printGraph(parseGraph(printed)) == printed);
    if (c.execute)
        checkSameValues(input, graph);
}

void runFixture(std::string_view pass)
{
    const std::string path = fixturePath(pass);
    for (const IrCase& c : readIrFixture(path, std::string(pass))) {
        DYNAMIC_SECTION(pass << ".ir:" << c.firstLine) { runCase(c, path); }
    }
}

} // namespace

TEST_CASE("every pass has a fixture file with cases that change the graph and cases that must not")
{
    for (const PassInfo* pass : passRegistry()) {
        INFO("pass " << pass->name);
        REQUIRE(std::filesystem::exists(fixturePath(pass->name)));
        bool unchanged = false, changes = false;
        for (const IrCase& c : readIrFixture(fixturePath(pass->name), std::string(pass->name))) {
            unchanged = unchanged || (c.changed && !*c.changed);
            changes = changes || (c.changed && *c.changed);
        }
        CHECK(unchanged);
        CHECK(changes);
        CHECK(!pass->summary.empty());
        CHECK(pass->description.find("not") != std::string_view::npos);
    }
}

TEST_CASE("dce removes what no output depends on") { runFixture("dce"); }
TEST_CASE("cse merges equal computations") { runFixture("cse"); }
TEST_CASE("constant_fold evaluates constant subgraphs") { runFixture("constant_fold"); }
TEST_CASE("algebraic_simplify removes identities and merges transposes and reshapes")
{
    runFixture("algebraic_simplify");
}
TEST_CASE("elementwise_fusion turns elementwise chains into fused kernels")
{
    runFixture("elementwise_fusion");
}
TEST_CASE("pool_relu_grad_fusion merges a max pool's gradient with the ReLU gradient after it")
{
    runFixture("pool_relu_grad_fusion");
}
TEST_CASE("pool_before_relu moves a ReLU after the max pool it feeds") { runFixture("pool_before_relu"); }
TEST_CASE("conv_cols_reuse makes one im2col copy for a convolution and its filter gradient")
{
    runFixture("conv_cols_reuse");
}
TEST_CASE("buffer_reuse plans buffers and reports the bytes saved") { runFixture("buffer_reuse"); }
TEST_CASE("pipelines of passes") { runFixture("pipeline"); }
