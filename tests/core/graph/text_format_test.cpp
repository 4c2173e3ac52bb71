// Tests of the graph text form (core/graph/text_format.cpp, text_parser.cpp, text_lexer.cpp).
// SPDX-License-Identifier: MIT
#include "graph/text_format.h"
#include "graph/text_parser.h"
#include "graph/tracer.h"
#include "ops/elementwise/defs.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

using namespace gradstep;

namespace {
void checkRoundTrip(const std::string& text)
{
    const std::string once = printGraph(parseGraph(text));
    CHECK(once == text);
    CHECK(printGraph(parseGraph(once)) == once);
}
} // namespace

TEST_CASE("a node prints as one line with types, attributes, phase, origin, scope and location")
{
    Graph g("net");
    const ValueId x = g.addInput("x", {{2, 3}, DType::Float32});
    const ValueId w = g.addInput("fc.weight", {{2, 3}, DType::Float32}, ValueKind::Parameter);
    NodeIdentity id;
    id.scope = "Net/fc";
    id.location.file = std::make_shared<const std::string>("net.py");
    id.location.line = 12;
    id.location.column = 9;
    const ValueId y = g.addNode1(kMul, {x, w}, {}, id);
    id.phase = Phase::Backward;
    id.origin = 0;
    const ValueId z = g.addNode1(kLeakyReLU, {y}, Attrs{{"alpha", 0.1}}, id);
    g.setOutputs({z});
    const std::string expected =
        "graph @net(%x : f32[2, 3], %fc.weight : f32[2, 3] param) {\n"
        "  %0 : f32[2, 3] = Mul(%x, %fc.weight) @Net/fc # net.py:12:9\n"
        "  %1 : f32[2, 3] = LeakyReLU(%0) {alpha=0.1} [backward] from %0 @Net/fc # net.py:12:9\n"
        "  return %1\n"
        "}\n";
    CHECK(printGraph(g) == expected);
    checkRoundTrip(expected);
}

TEST_CASE("constants, multiple results, buffers and attribute kinds round-trip")
{
    checkRoundTrip("graph @g(%x : f64[4]) {\n"
                   "  %0 : f64[] = constant 0.5\n"
                   "  %1 : f32[2, 2] = constant splat 1.0\n"
                   "  %2 : i64[3] = constant [1, -2, 3]\n"
                   "  %3 : bool[2] = constant [true, false]\n"
                   "  %4 : f64[3] = constant [inf, -0.0, 1e-300]\n"
                   "  %5 : f64[4] (buffer 0) = Mul(%x, %0)\n"
                   "  %6 : f64[2], %7 : f64[2] = Split(%5) {axis=0, output_num=2}\n"
                   "  %8 : f32[2] = Cast(%6) {dtype=Float32}\n"
                   "  return %7, %6\n"
                   "}\n");
}

TEST_CASE("if, while and fused nodes print their subgraphs as nested blocks")
{
    checkRoundTrip("graph @g(%c : bool[], %x : f32[2]) {\n"
                   "  %0 : f32[2] = If(%c, %x)\n"
                   "    then(%a : f32[2]) {\n"
                   "      %1 : f32[2] = Neg(%a)\n"
                   "      return %1\n"
                   "    }\n"
                   "    else(%a : f32[2]) {\n"
                   "      return %a\n"
                   "    }\n"
                   "  %2 : f32[2] = While(%0) {max_iterations=10}\n"
                   "    cond(%v : f32[2]) {\n"
                   "      %3 : f32[] = constant 8.0\n"
                   "      %4 : f32[] = ReduceSum(%v)\n"
                   "      %5 : bool[] = Less(%4, %3)\n"
                   "      return %5\n"
                   "    }\n"
                   "    body(%v : f32[2]) {\n"
                   "      %6 : f32[2] = Add(%v, %v)\n"
                   "      return %6\n"
                   "    }\n"
                   "  %7 : f32[2] = FusedElementwise(%2, %x)\n"
                   "    fused(%p : f32[2], %q : f32[2]) {\n"
                   "      %8 : f32[2] = Mul(%p, %q)\n"
                   "      %9 : f32[2] = Exp(%8)\n"
                   "      return %9\n"
                   "    }\n"
                   "  return %7\n"
                   "}\n");
}

TEST_CASE("a traced graph prints, parses and prints to the same text")
{
    const TracedInput inputs[] = {{"x", {{2, 3}, DType::Float64}}, {"y", {{3}, DType::Float64}}};
    Graph g = traceFunction("f", inputs, [](const TensorList& a) {
        Tensor s = sigmoid(add(a[0], a[1]));
        return TensorList{reduceSum(mul(s, s), {1}, true), transpose(s, {1, 0})};
    });
    const std::string text = printGraph(g);
    checkRoundTrip(text);
}

TEST_CASE("parse errors give the line and column of the offending token")
{
    auto errorOf = [](const std::string& text) -> std::string {
        try {
            parseGraph(text, "t.ir");
        } catch (const TextParseError& e) {
            return e.what();
        }
        return "no error";
    };
    CHECK(errorOf("graph @g(%x : f32[2]) {\n  %0 : f32[2] = Nope(%x)\n  return %0\n}\n")
          == "t.ir:2:17: error: unknown op 'Nope'");
    CHECK(errorOf("graph @g(%x : f32[2]) {\n  %0 : f32[2] = Neg(%y)\n  return %0\n}\n")
          == "t.ir:2:21: error: value '%y' is used before it is defined");
    CHECK(errorOf("graph @g(%x : f32[2]) {\n  %0 : f32[3] = Neg(%x)\n  return %0\n}\n")
          == "t.ir:2:3: error: '%0' is written as f32[3] but 'Neg' gives f32[2]");
    CHECK(errorOf("graph @g(%x : f32[2]) {\n  %0 : f32[2] = Add(%x, %x\n  return %0\n}\n")
          == "t.ir:3:3: error: expected ')', got 'return'");
    CHECK(errorOf(
              "graph @g(%x : f32[2], %y : f32[3]) {\n  %0 : f32[2] = Add(%x, %y)\n  return %0\n}\n")
              .rfind("t.ir:2:17: error: for 'Add'", 0)
          == 0);
    CHECK(errorOf("graph @g(%x : q8[2]) {}")
          == "t.ir:1:15: error: expected a type such as 'f32[2, 3]', got 'q8'");
    CHECK(errorOf("graph @g() {\n  %0 : f32[] = constant 'a'\n  return %0\n}")
          == "t.ir:2:25: error: expected a number, got 'a'");
}
