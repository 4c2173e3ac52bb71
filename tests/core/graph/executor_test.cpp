// Tests of the graph executor (core/graph/executor.cpp). SPDX-License-Identifier: MIT
#include "graph/executor.h"

#include "autodiff/context.h"
#include "autodiff/node.h"
#include "autodiff/observer.h"
#include "graph/text_parser.h"
#include "graph/tracer.h"
#include "nn/parameter.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

namespace {
struct EventLog : ExecutionObserver {
    std::vector<std::string> lines;
    void nodeStarted(const NodeEvent& e) override
    {
        lines.push_back("start " + std::string(e.op->name));
    }
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
    CHECK(log.lines
          == std::vector<std::string>{"start Neg", "finish Neg @Net/a", "start Exp",
                                      "finish Exp @Net/b"});
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
    CHECK_THROWS_WITH(executeGraph(bounded, TensorList{x}),
                      Catch::Contains("exceeded its bound of 3 iterations"));
}

TEST_CASE("a fused node reports itself and, inside, each of its members with real values")
{
    Graph g = parseGraph("graph @g(%x : f32[2]) {\n"
                         "  %0 : f32[2] = FusedElementwise(%x) @Net\n"
                         "    fused(%a : f32[2]) {\n"
                         "      %1 : f32[2] = Neg(%a) @Net/a\n"
                         "      %2 : f32[2] = Exp(%1) @Net/b\n"
                         "      return %2\n"
                         "    }\n"
                         "  return %0\n"
                         "}\n");
    const Tensor x = Tensor::fromVector<float>({2}, {0, 1});
    const TensorList unobserved = executeGraph(g, TensorList{x});
    EventLog log;
    {
        ObserverGuard attach(&log);
        const TensorList observed = executeGraph(g, TensorList{x});
        CHECK(observed[0].toDoubles() == unobserved[0].toDoubles());
    }
    CHECK(log.lines
          == std::vector<std::string>{"start FusedElementwise", "start Neg", "finish Neg @Net/a",
                                      "start Exp", "finish Exp @Net/b",
                                      "finish FusedElementwise @Net"});
}

TEST_CASE("planned buffers are shared by values with disjoint lifetimes and reused across runs")
{
    Graph g = parseGraph("graph @g(%x : f64[64]) {\n"
                         "  %0 : f64[64] (buffer 0) = Exp(%x)\n"
                         "  %1 : f64[64] (buffer 1) = Neg(%0)\n"
                         "  %2 : f64[64] (buffer 0) = Sin(%1)\n"
                         "  %3 : f64[64] = Mul(%2, %2)\n"
                         "  return %3\n"
                         "}\n");
    // The outputs are kept alive, so a freed value's storage cannot come back at the same address
    // for a later one (the allocator would make distinct buffers look shared, or the reverse).
    struct StorageLog : ExecutionObserver {
        std::vector<const void*> data;
        TensorList kept;
        void nodeStarted(const NodeEvent&) override {}
        void nodeFinished(const NodeEvent& e) override
        {
            data.push_back(e.outputs[0].rawData());
            kept.push_back(e.outputs[0]);
        }
    };
    GraphExecutor executor(g);
    const Tensor x = Tensor::full({64}, 0.5, DType::Float64);
    const double expected = std::sin(-std::exp(0.5));
    for (int run = 0; run < 3; ++run) {
        const TensorList out = executor.run(TensorList{x});
        CHECK(out[0].at(7) == expected * expected);
    }
    // With an observer attached the plan is not used: every value the observer sees stays intact.
    StorageLog log;
    ObserverGuard attach(&log);
    executor.run(TensorList{x});
    REQUIRE(log.data.size() == 4);
    CHECK(log.data[0] != log.data[2]);
}

TEST_CASE("an observer sees a parameter input as the Parameter, while the graph outputs plain tensors")
{
    Graph g = parseGraph("graph @g(%x : f32[2], %w : f32[2] param) {\n"
                         "  %0 : f32[2] = Mul(%x, %w)\n"
                         "  return %0, %w\n"
                         "}\n");
    const Parameter w(Tensor::fromVector<float>({2}, {2, 3}), "w");
    const TensorList args{Tensor::fromVector<float>({2}, {1, 1}), w};
    struct Inputs : ExecutionObserver {
        std::vector<std::string> names; // per input of each finished node: its parameter name
        void nodeStarted(const NodeEvent&) override {}
        void nodeFinished(const NodeEvent& e) override
        {
            for (const Tensor& t : e.inputs)
                names.push_back(t.gradFn() && t.gradFn()->isLeaf() ? t.gradFn()->name : "-");
        }
    } seen;
    TensorList out;
    {
        ObserverGuard guard(&seen);
        out = executeGraph(g, args);
    }
    CHECK(seen.names == std::vector<std::string>{"-", "w"});
    REQUIRE(out.size() == 2);
    CHECK(out[1].toDoubles() == std::vector<double>{2, 3});
    CHECK_FALSE(out[1].gradFn()); // returned as a plain tensor, as without an observer
    CHECK_FALSE(executeGraph(g, args)[1].gradFn());
}

TEST_CASE("a random op in a compiled graph draws anew on every run, from its traced seed first")
{
    Graph g = parseGraph("graph @g(%x : f32[64]) {\n"
                         "  %0 : f32[64], %1 : f32[64] = Dropout(%x) {keep_prob = 0.5, seed = 7}\n"
                         "  return %0\n"
                         "}\n");
    const Tensor x = Tensor::fromVector<float>({64}, std::vector<float>(64, 1.0f));
    GraphExecutor executor(g);
    struct SeedLog : ExecutionObserver {
        std::vector<std::int64_t> seeds;
        void nodeStarted(const NodeEvent&) override {}
        void nodeFinished(const NodeEvent& e) override { seeds.push_back(e.attrs->getInt("seed")); }
    } log;
    std::vector<std::vector<double>> masks;
    {
        ObserverGuard attach(&log);
        for (int run = 0; run < 3; ++run)
            masks.push_back(executor.run(TensorList{x})[0].toDoubles());
    }
    // The first run is the traced op itself: the same mask PyNative draws with seed 7.
    CHECK(masks[0] == dropout(x, 0.5, 7).toDoubles());
    CHECK(masks[1] != masks[0]);
    CHECK(masks[2] != masks[1]);
    CHECK(masks[2] != masks[0]);
    // Events report the seed each run used, and that seed reproduces the run's mask.
    REQUIRE(log.seeds.size() == 3);
    CHECK(log.seeds[0] == 7);
    CHECK(masks[1] == dropout(x, 0.5, static_cast<std::uint64_t>(log.seeds[1])).toDoubles());
    // Another executor of the same graph (a recompilation) repeats the sequence.
    GraphExecutor again(g);
    for (int run = 0; run < 3; ++run)
        CHECK(again.run(TensorList{x})[0].toDoubles() == masks[static_cast<std::size_t>(run)]);
}
