// Tests of the DOT export (core/graph/dot_export.cpp). SPDX-License-Identifier: MIT
#include "graph/dot_export.h"

#include "graph/autodiff.h"
#include "graph/text_parser.h"
#include "passes/pass.h"

#include <catch2/catch.hpp>

using namespace gradstep;

namespace {
const char* kNet = "graph @net(%x : f32[2, 3], %w : f32[2, 3] param) {\n"
                   "  %one : f32[] = constant 1.0\n"
                   "  %0 : f32[2, 3] = Mul(%x, %w) @Net/fc # net.py:3:5\n"
                   "  %1 : f32[2, 3] = Tanh(%0) @Net/act\n"
                   "  %2 : f32[2, 3] = Add(%1, %one) @Net/act\n"
                   "  %3 : f32[] = ReduceSum(%2) @Loss\n"
                   "  return %3\n"
                   "}\n";

std::size_t count(const std::string& text, const std::string& what)
{
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}
} // namespace

TEST_CASE("dot export draws scopes as nested clusters with op and shape on each node")
{
    const std::string dot = exportDot(parseGraph(kNet));
    CHECK(dot.rfind("digraph \"net\" {\n", 0) == 0);
    CHECK(dot.find("label=\"Net\"") != std::string::npos);
    CHECK(dot.find("label=\"fc\"") != std::string::npos);
    CHECK(dot.find("label=\"Loss\"") != std::string::npos);
    CHECK(count(dot, "subgraph cluster_") == 4); // Net, Net/act, Net/fc, Loss
    CHECK(dot.find("n0 [fillcolor=\"#dbe9f6\", label=\"Mul\\nf32[2, 3]\", tooltip=\"Net/fc/Mul at "
                   "net.py:3:5\"]")
          != std::string::npos);
    CHECK(dot.find("a1 [shape=ellipse, fillcolor=#fff2cc, label=\"w\\nf32[2, 3]\"]")
          != std::string::npos);
    CHECK(dot.find("n3 -> out") != std::string::npos);
    // Every node statement comes before the first edge.
    CHECK(dot.rfind(" [fillcolor") < dot.find(" -> "));
}

TEST_CASE("dot export is deterministic and colours backward nodes by phase")
{
    const Graph forward = parseGraph(kNet);
    GradientSpec spec;
    spec.wrt = {forward.inputs()[1]};
    const Graph g = gradientGraph(forward, spec);
    const std::string dot = exportDot(g);
    CHECK(dot == exportDot(g));
    CHECK(dot.find("#f9dcc4") != std::string::npos);
    CHECK(dot.find("label=\"Gradients\"") != std::string::npos);
}

TEST_CASE("dot export escapes quotes and backslashes and cuts long labels")
{
    CHECK(dotQuoted("a \"b\" \\ c\nd") == "\"a \\\"b\\\" \\\\ c\\nd\"");
    Graph g("q\"uote");
    const ValueId x = g.addInput(std::string(80, 'x'), {{2}, DType::Float32});
    g.setOutputs({x});
    DotOptions options;
    options.maxLabelLength = 10;
    const std::string dot = exportDot(g, options);
    CHECK(dot.find("digraph \"q\\\"uote\"") != std::string::npos);
    CHECK(dot.find("label=\"xxxxxxx...\\nf32[2]\"") != std::string::npos);
}

TEST_CASE("dot export draws fused members and branches inside their node's cluster")
{
    Graph g = parseGraph("graph @g(%c : bool[], %x : f32[2]) {\n"
                         "  %0 : f32[2] = If(%c, %x)\n"
                         "    then(%a : f32[2]) {\n"
                         "      %1 : f32[2] = Neg(%a)\n"
                         "      return %1\n"
                         "    }\n"
                         "    else(%a : f32[2]) {\n"
                         "      return %a\n"
                         "    }\n"
                         "  return %0\n"
                         "}\n");
    const std::string dot = exportDot(g);
    CHECK(dot.find("label=\"then\"") != std::string::npos);
    CHECK(dot.find("n0_0_n0 [") != std::string::npos);
    CHECK(dot.find("a1 -> n0_0_a0 [style=dashed]") != std::string::npos);
    CHECK(dot.find("n0_1_out -> n0 [style=dashed]") != std::string::npos);
    DotOptions collapsed;
    collapsed.expandSubgraphs = false;
    CHECK(exportDot(g, collapsed).find("then") == std::string::npos);
}
