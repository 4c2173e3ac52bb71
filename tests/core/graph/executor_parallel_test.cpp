// The executor's parallel groups (Note [Inter-op parallelism]): a training step run with the
// inter-op pool gives the same bits as one run node by node, run after run, and errors from a
// node of a group surface as they would one by one. SPDX-License-Identifier: MIT
#include "graph/autodiff.h"
#include "graph/executor.h"
#include "graph/inter_op_pool.h"
#include "graph/text_parser.h"
#include "graph/tracer.h"
#include "nn/losses/softmax_cross_entropy_with_logits.h"
#include "nn/models/lenet5.h"
#include "nn/wrappers/with_loss_cell.h"
#include "ops/ops.h"
#include "passes/pipeline.h"
#include "tests/core/ops/gradcheck.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

struct Threads {
    explicit Threads(int n) { InterOpPool::instance().setThreads(n); }
    ~Threads() { InterOpPool::instance().setThreads(0); }
};

bool sameBits(const Tensor& a, const Tensor& b)
{
    return a.shape() == b.shape() && a.dtype() == b.dtype()
           && std::memcmp(a.rawData(), b.rawData(),
                          static_cast<std::size_t>(a.numel()) * itemSize(a.dtype()))
                  == 0;
}

} // namespace

TEST_CASE("LeNet5's training step gives the same bits with parallel groups as node by node")
{
    auto net = std::make_shared<WithLossCell>(
        std::make_shared<LeNet5>(), std::make_shared<SoftmaxCrossEntropyWithLogits>(true, "mean"));
    const ParameterTuple params = net->trainableParams();
    const Tensor x = cast(sample({32, 1, 32, 32}, -1, 1, 3), DType::Float32);
    std::vector<std::int32_t> labelValues(32);
    for (int i = 0; i < 32; ++i)
        labelValues[static_cast<std::size_t>(i)] = i % 10;
    const Tensor labels = Tensor::fromVector<std::int32_t>({32}, labelValues);
    const TracedInput inputs[] = {{"x", {x.shape(), x.dtype()}}, {"label", {{32}, DType::Int32}}};
    const Graph forward = traceFunction("lenet", inputs, params, [&](const TensorList& a) {
        return TensorList{(*net)({a[0], a[1]}).tensor()};
    });
    GradientSpec spec;
    spec.wrt.assign(forward.inputs().begin() + 2, forward.inputs().end());
    const Graph graph = runPipeline(gradientGraph(forward, spec), defaultPipeline()).graph;
    int parallelGroups = 0;
    for (const NodeGroup& g : nodeGroups(graph))
        parallelGroups += g.parallel;
    CHECK(parallelGroups >= 3); // fc2, fc1 and conv2: weight and input gradients at once

    TensorList args{x, labels};
    args.insert(args.end(), params.begin(), params.end());
    TensorList expected;
    {
        const Threads one(1);
        expected = GraphExecutor(graph).run(args);
    }
    const Threads two(2);
    GraphExecutor executor(graph);
    for (int run = 0; run < 30; ++run) { // planned buffers are reused from the second run on
        const TensorList got = executor.run(args);
        REQUIRE(got.size() == expected.size());
        for (std::size_t k = 0; k < got.size(); ++k) {
            INFO("run " << run << ", output " << k);
            REQUIRE(sameBits(got[k], expected[k]));
        }
    }
}

TEST_CASE("an error in a parallel group is the first one in graph order, as node by node")
{
    // Two Gathers with indices out of range: each kernel throws; whichever thread runs first, the
    // error reported is the first node's.
    const Graph g = parseGraph("graph @g(%x : f32[128, 128], %i : i32[128], %j : i32[128]) {\n"
                               "  %0 : f32[128, 128] = Gather(%x, %i) {axis=0}\n"
                               "  %1 : f32[128, 128] = Gather(%x, %j) {axis=0}\n"
                               "  return %0, %1\n"
                               "}\n");
    REQUIRE(nodeGroups(g).front().parallel);
    std::vector<std::int32_t> first(128, 0), second(128, 0);
    first[5] = 1000;
    second[7] = 2000;
    const TensorList args{Tensor::zeros({128, 128}), Tensor::fromVector<std::int32_t>({128}, first),
                          Tensor::fromVector<std::int32_t>({128}, second)};
    const Threads two(2);
    GraphExecutor executor(g);
    for (int run = 0; run < 20; ++run)
        CHECK_THROWS_WITH(executor.run(args), Catch::Contains("index 1000"));
}

TEST_CASE("values of one parallel group never share a planned buffer, so running it at once is safe")
{
    // One after the other, Neg's output could take the buffer of %0, which Exp reads last; run at
    // once, Neg (the faster kernel) would overwrite %0 while Exp still reads it.
    const Graph g = parseGraph("graph @g(%x : f32[512, 512], %y : f32[512, 512]) {\n"
                               "  %0 : f32[512, 512] = Sin(%x)\n"
                               "  %1 : f32[512, 512] = Exp(%0)\n"
                               "  %2 : f32[512, 512] = Neg(%y)\n"
                               "  %3 : f32[512, 512] = Add(%1, %2)\n"
                               "  return %3\n"
                               "}\n");
    const std::string_view plan[] = {"buffer_reuse"};
    const Graph planned = runPipeline(g, plan).graph;
    const TensorList args{cast(sample({512, 512}, -3, 3, 1), DType::Float32),
                          cast(sample({512, 512}, -1, 1, 2), DType::Float32)};
    TensorList expected;
    {
        const Threads one(1);
        expected = GraphExecutor(planned).run(args);
    }
    const Threads two(2);
    GraphExecutor executor(planned);
    for (int run = 0; run < 20; ++run)
        REQUIRE(sameBits(executor.run(args)[0], expected[0]));
}
