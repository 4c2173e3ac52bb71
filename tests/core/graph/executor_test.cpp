// Tests of the graph executor (core/graph/executor.cpp). SPDX-License-Identifier: MIT
#include "graph/executor.h"

#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "graph/text_parser.h"
#include "graph/tracer.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

using namespace gradstep;

namespace {
struct EventLog : ExecutionObserver {
    std::vector<std::string> lines;
    void nodeStarted(const NodeEvent& e) override { lines.push_back("start " + std::string(e.op->name)); }
    void nodeFinished(const NodeEvent& e) override
    {
        lines.push_back("finish " + std::string(e.op->name) + (e.scope ? " @" + *e.scope : "")
                        + (e.graphNode ? "" : " (no graph node)"));
    }
};
} // namespace

TEST_CASE("executing a traced graph gives the values PyNative computes")
{
    auto fn = [](const TensorList& a) {
        Tensor s = tanh(add(mul(a[0], a[1]), a[1]));
        return TensorList{reduceMean(square(s), {1}), s};
    };
    const TracedInput inputs[] = {{"x", {{2, 3}, DType::Float64}}, {"y", {{3}, DType::Float64}}};
    Graph g = traceFunction("f", inputs, fn);
    const TensorList args{Tensor::fromVector<double>({2, 3}, {1, 2, 3, 4, 5, 6}),
                          Tensor::fromVector<double>({3}, {0.5, -0.25, 0.125})};
    const TensorList expected = fn(args);
    const TensorList got = executeGraph(g, args);
    REQUIRE(got.size() == 2);
    for (std::size_t k = 0; k < 2; ++k)
        CHECK(got[k].toDoubles() == expected[k].toDoubles());
}

TEST_CASE("the executor checks its inputs against the graph's input types")
{
    Graph g = parseGraph("graph @g(%x : f32[2]) {\n  %0 : f32[2] = Neg(%x)\n  return %0\n}\n");
    const TensorList wrong{Tensor::zeros({3})};
    CHECK_THROWS_AS(executeGraph(g, wrong), ShapeError);
    CHECK_THROWS_AS(executeGraph(g, TensorList{}), TypeError);
}

TEST_CASE("the executor emits started and finished events for every node, as PyNative does")
{
    Graph g = parseGraph("graph @g(%x : f32[2]) {\n"
                         "  %0 : f32[2] = Neg(%x) @Net/a\n"
                         "  %1 : f32[2] = Exp(%0) [backward] @Net/b\n"
                         "  return %1\n"
                         "}\n");
    EventLog log;
    ObserverGuard attach(&log);
    executeGraph(g, TensorList{Tensor::zeros({2})});
    CHECK(log.lines == std::vector<std::string>{"start Neg", "finish Neg @Net/a", "start Exp", "finish Exp @Net/b"});
}

TEST_CASE("if and while nodes run the branch and the loop their conditions choose")
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
                         "  %2 : f32[2] = While(%x) {max_iterations=10}\n"
                         "    cond(%v : f32[2]) {\n"
                         "      %3 : f32[] = constant 20.0\n"
                         "      %4 : f32[] = ReduceSum(%v)\n"
                         "      %5 : bool[] = Less(%4, %3)\n"
                         "      return %5\n"
                         "    }\n"
                         "    body(%v : f32[2]) {\n"
                         "      %6 : f32[2] = Add(%v, %v)\n"
                         "      return %6\n"
                         "    }\n"
                         "  return %0, %2\n"
                         "}\n");
    const Tensor x = Tensor::fromVector<float>({2}, {1, 2});
    GraphExecutor executor(g);
    TensorList out = executor.run(TensorList{Tensor::scalar(1, DType::Bool), x});
    CHECK(out[0].toDoubles() == std::vector<double>{-1, -2});
    CHECK(out[1].toDoubles() == std::vector<double>{8, 16});
    out = executor.run(TensorList{Tensor::scalar(0, DType::Bool), x});
    CHECK(out[0].toDoubles() == std::vector<double>{1, 2});

    Graph bounded = parseGraph("graph @g(%x : f32[2]) {\n"
                               "  %0 : f32[2] = While(%x) {max_iterations=3}\n"
                               "    cond(%v : f32[2]) {\n"
                               "      %1 : bool[] = constant true\n"
                               "      return %1\n"
                               "    }\n"
                               "    body(%v : f32[2]) {\n"
                               "      return %v\n"
                               "    }\n"
                               "  return %0\n"
                               "}\n");
    CHECK_THROWS_WITH(executeGraph(bounded, TensorList{x}), Catch::Contains("exceeded its bound of 3 iterations"));
}
