// CustomBprop nodes (core/graph/control_flow.cpp, executor.cpp, autodiff.cpp): the node computes
// its construct, graph autodiff uses its bprop's results verbatim as the argument gradients (the
// other operands get none), the text form round-trips, DOT shows both subgraphs, the default
// pipeline keeps the values, and a bprop of the wrong shape is refused. SPDX-License-Identifier:
// MIT
#include "graph/autodiff.h"

#include "graph/dot_export.h"
#include "graph/executor.h"
#include "graph/text_format.h"
#include "graph/text_parser.h"
#include "passes/pipeline.h"
#include "tests/core/ops/gradcheck.h"

#include <catch2/catch.hpp>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

// construct: round(x) * w; bprop: (dout * 3 + out,) — deliberately not the true derivative.
const char* const kRounding = "graph @f(%x : f64[3], %w : f64[3] param) {\n"
                              "  %0 : f64[3] = CustomBprop(%x, %w) {arguments=1} @Round\n"
                              "    construct(%a : f64[3], %b : f64[3]) {\n"
                              "      %1 : f64[3] = Round(%a) @Round\n"
                              "      %2 : f64[3] = Mul(%1, %b) @Round\n"
                              "      return %2\n"
                              "    }\n"
                              "    bprop(%a : f64[3], %b : f64[3], %out : f64[3], "
                              "%dout : f64[3]) {\n"
                              "      %three : f64[] = constant 3.0\n"
                              "      %3 : f64[3] = Mul(%dout, %three) [backward] @Round\n"
                              "      %4 : f64[3] = Add(%3, %out) [backward] @Round\n"
                              "      return %4\n"
                              "    }\n"
                              "  %5 : f64[3] = Mul(%0, %x)\n"
                              "  %6 : f64[] = ReduceSum(%5)\n"
                              "  return %6\n"
                              "}\n";

} // namespace

TEST_CASE("a custom bprop node's gradient is its bprop's result, verbatim")
{
    const Graph forward = parseGraph(kRounding, "bprop.ir");
    CHECK(printGraph(parseGraph(printGraph(forward), "again.ir")) == printGraph(forward));
    GradientSpec spec;
    spec.wrt = {forward.inputs()[0], forward.inputs()[1]};
    const Graph gradient = gradientGraph(forward, spec);
    const Tensor x = values({3}, {0.2, 1.7, -2.4}), w = values({3}, {2.0, -1.0, 0.5});
    const std::vector<double> r{0, 2, -2};
    // d/dx of sum(c(x) * x) with c's gradient replaced: c(x) + bprop(dout = x).
    std::vector<double> gx;
    for (std::size_t i = 0; i < 3; ++i) {
        const double out = r[i] * w.at(static_cast<std::int64_t>(i));
        gx.push_back(out + (3 * x.at(static_cast<std::int64_t>(i)) + out));
    }
    const Graph optimised = runPipeline(gradient, defaultPipeline()).graph;
    for (const Graph* g : {&gradient, &optimised}) {
        const TensorList got = executeGraph(*g, TensorList{x, w});
        CHECK(got[1].toDoubles() == gx);
        CHECK(got[2].toDoubles() == std::vector<double>{0, 0, 0}); // w: no gradient from bprop
    }
    const std::string text = printGraph(gradient);
    CHECK_THAT(text, Catch::Contains("CustomBprop(%x, %w) {arguments=1} @Round")
                         && Catch::Contains("= Add(%14, %3) [backward] from %3 @Round"));
    const std::string dot = exportDot(forward, {});
    CHECK_THAT(dot, Catch::Contains("label=\"construct\"") && Catch::Contains("label=\"bprop\""));
}

TEST_CASE("a custom bprop node checks its bprop's signature and results")
{
    std::string wrong = kRounding;
    wrong.replace(wrong.find("return %4"), 9, "return %three");
    CHECK_THROWS_WITH(parseGraph(wrong, "wrong.ir"),
                      Catch::Contains("the gradient the bprop returns for argument 0 differs in "
                                      "shape"));
    std::string missing = kRounding;
    missing.replace(missing.find(", %dout : f64[3]"), 16, "");
    missing.replace(missing.find("Mul(%dout"), 9, "Mul(%out");
    CHECK_THROWS_WITH(parseGraph(missing, "missing.ir"),
                      Catch::Contains("the bprop takes 3 inputs"));
}
