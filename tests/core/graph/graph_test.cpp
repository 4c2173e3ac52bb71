// Tests of the graph IR (core/graph/graph.cpp, control_flow.cpp, tracer.cpp).
// SPDX-License-Identifier: MIT
#include "graph/graph.h"
#include "graph/tracer.h"
#include "ops/elementwise/defs.h"
#include "ops/ops.h"
#include "ops/reduction/defs.h"
#include "ops/shape/defs.h"

#include <catch2/catch.hpp>

using namespace gradstep;

TEST_CASE("building a node runs the op's shape rule")
{
    Graph g("f");
    const ValueId x = g.addInput("x", {{2, 3}, DType::Float32});
    const ValueId b = g.addInput("b", {{3}, DType::Float32}, ValueKind::Parameter);
    const ValueId y = g.addNode1(kAdd, {x, b});
    CHECK(g.spec(y).shape == Shape{2, 3});
    CHECK(g.spec(y).dtype == DType::Float32);
    CHECK(g.value(y).node == 0);
    CHECK(g.value(b).kind == ValueKind::Parameter);
    const ValueId r = g.addNode1(kReshape, {y}, Attrs{{"shape", std::vector<std::int64_t>{3, -1}}});
    CHECK(g.spec(r).shape == Shape{3, 2});
    g.setOutputs({r});
    CHECK(g.nodes().size() == 2);
    CHECK(g.users()[y] == std::vector<NodeId>{1});
}

TEST_CASE("a node with incompatible inputs fails with the op's own error")
{
    Graph g;
    const ValueId x = g.addInput("x", {{2, 3}, DType::Float32});
    const ValueId y = g.addInput("y", {{4}, DType::Float32});
    CHECK_THROWS_AS(g.addNode1(kAdd, {x, y}), ShapeError);
    CHECK_THROWS_AS(g.addNode1(kAdd, {x}), TypeError);
    CHECK_THROWS_AS(g.addNode1(kAdd, {x, 99}), ValueError);
}

TEST_CASE("tracing a function turns its ops into nodes and its tensors into constants")
{
    const TracedInput inputs[] = {{"x", {{3}, DType::Float64}}};
    Graph g = traceFunction("f", inputs, [](const TensorList& a) {
        ScopeGuard scope("Net");
        return TensorList{mul(exp(a[0]), Tensor::scalar(2.0, DType::Float64))};
    });
    REQUIRE(g.nodes().size() == 2);
    CHECK(g.nodes()[0].name() == "Exp");
    CHECK(g.nodes()[1].identity.scope == "Net");
    const GraphValue& c = g.value(g.nodes()[1].inputs[1]);
    CHECK(c.kind == ValueKind::Constant);
    CHECK(c.constant.item() == 2.0);
    CHECK(executionContext().tracer == nullptr);
}

namespace {
Graph branch(const char* name, bool negate)
{
    Graph g(name);
    const ValueId a = g.addInput("a", {{2}, DType::Float32});
    g.setOutputs({negate ? g.addNode1(kNeg, {a}) : a});
    return g;
}
} // namespace

TEST_CASE("an if node checks that both branches return the same shapes and dtypes")
{
    Graph g;
    const ValueId c = g.addInput("c", {{}, DType::Bool});
    const ValueId x = g.addInput("x", {{2}, DType::Float32});
    const ValueId ids[] = {x};
    const auto out = g.addIf(c, ids, branch("t", true), branch("e", false));
    CHECK(g.spec(out[0]).shape == Shape{2});

    Graph other("e");
    const ValueId a = other.addInput("a", {{2}, DType::Float32});
    other.setOutputs({other.addNode1(kReduceSum, {a})});
    try {
        g.addIf(c, ids, branch("t", true), std::move(other));
        FAIL("expected a join error");
    } catch (const ValueError& e) {
        CHECK_THAT(e.what(), Catch::Contains("Shape Join Failed: shape1 = (2,), shape2 = ()"));
    }
    CHECK_THROWS_AS(g.addIf(x, ids, branch("t", true), branch("e", false)), TypeError);
}

TEST_CASE("a while node needs a Bool condition, a body that keeps shapes, and a positive bound")
{
    Graph g;
    const ValueId x = g.addInput("x", {{2}, DType::Float32});
    const ValueId ids[] = {x};
    Graph cond("cond");
    const ValueId a = cond.addInput("a", {{2}, DType::Float32});
    const ValueId s = cond.addNode1(kReduceSum, {a});
    cond.setOutputs({cond.addNode1(kLess, {s, cond.addConstant(Tensor::scalar(10.0))})});
    const auto out = g.addWhile(ids, cond, branch("body", true), 5);
    CHECK(g.spec(out[0]).shape == Shape{2});
    CHECK(g.nodes()[0].attrs.getInt("max_iterations") == 5);
    CHECK_THROWS_AS(g.addWhile(ids, cond, branch("body", true), 0), ValueError);
    Graph shrink("body");
    const ValueId b = shrink.addInput("a", {{2}, DType::Float32});
    shrink.setOutputs({shrink.addNode1(kReduceSum, {b})});
    CHECK_THROWS_WITH(g.addWhile(ids, cond, shrink, 5),
                      Catch::Contains("loop variable 0 differs in shape. Shape Join Failed: "
                                      "shape1 = (2,), shape2 = ()"));
    CHECK_THROWS_AS(g.addWhile(ids, cond, shrink, 5), ValueError);
}
