// DisplayGraph from a LeNet5 step's records: nodes, clusters, data flow, cross links, collapse,
// states. SPDX-License-Identifier: MIT
#include "display/display_graph.h"
#include "api/jvp_tracer.h"
#include "ops/ops.h"
#include "graph/autodiff.h"
#include "graph/text_parser.h"
#include "tests/core/display/display_test_util.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace gradstep;
using namespace gradstep::display;

namespace {

const std::vector<debug::RecordPtr>& records()
{
    static const std::vector<debug::RecordPtr> r = testing::lenet5StepRecords();
    return r;
}

std::size_t countKind(const DisplayGraph& g, display::NodeKind kind, Phase phase)
{
    return static_cast<std::size_t>(std::count_if(g.nodes.begin(), g.nodes.end(), [&](const DisplayNode& n) {
        return n.kind == kind && n.phase == phase;
    }));
}

bool hasEdge(const DisplayGraph& g, const std::string& from, const std::string& to, EdgeKind kind)
{
    const auto a = g.findNode(from), b = g.findNode(to);
    REQUIRE(a);
    REQUIRE(b);
    return std::any_of(g.edges.begin(), g.edges.end(),
                       [&](const DisplayEdge& e) { return e.from == *a && e.to == *b && e.kind == kind; });
}

} // namespace

TEST_CASE("the forward graph of a LeNet5 step has one op node per record with its output shape", "[display]")
{
    const DisplayGraph g = buildFromRecords(records(), BuildOptions{GraphPart::Forward});
    CHECK(countKind(g, display::NodeKind::Op, Phase::Forward) == 17);
    CHECK(countKind(g, display::NodeKind::Op, Phase::Backward) == 0);
    CHECK(countKind(g, display::NodeKind::Parameter, Phase::Forward) == 8); // Conv2d has no bias by default
    CHECK(countKind(g, display::NodeKind::Input, Phase::Forward) == 2);
    const auto conv = g.findNode("F:LeNet5/conv1/Conv2D#0");
    REQUIRE(conv);
    CHECK(g.nodes[*conv].title == "Conv2D");
    CHECK(g.nodes[*conv].detail == "[2, 6, 28, 28] f32");
    CHECK(g.nodes[*conv].scope == "LeNet5/conv1");
    CHECK(g.findNode("F:LeNet5/relu/ReLU#2"));
    CHECK(hasEdge(g, "F:LeNet5/conv1/Conv2D#0", "F:LeNet5/relu/ReLU#0", EdgeKind::Data));
    CHECK(hasEdge(g, "P:F:conv1.weight", "F:LeNet5/conv1/Conv2D#0", EdgeKind::Data));
    CHECK(g.countEdges(EdgeKind::CrossLink) == 0);
    CHECK(g.findCluster("LeNet5") >= 0);
    const int conv1 = g.findCluster("LeNet5/conv1");
    REQUIRE(conv1 >= 0);
    CHECK(g.clusters[static_cast<std::size_t>(conv1)].depth == 1);
    CHECK(g.clusters[static_cast<std::size_t>(conv1)].title == "conv1");
    for (const DisplayNode& n : g.nodes)
        CHECK(n.width > 0.0);
}

TEST_CASE("the train-step graph links each backward node to its forward node without constraining", "[display]")
{
    const DisplayGraph g = buildFromRecords(records());
    CHECK(countKind(g, display::NodeKind::Op, Phase::Backward) == 17);
    CHECK(countKind(g, display::NodeKind::Op, Phase::Update) == 32);
    CHECK(g.countEdges(EdgeKind::CrossLink) == 17);
    CHECK(hasEdge(g, "B:Gradients/LeNet5/conv1/Conv2D#0", "F:LeNet5/conv1/Conv2D#0", EdgeKind::CrossLink));
    // the gradient flows from the loss back to conv1, and conv1's weight gradient feeds its update
    CHECK(hasEdge(g, "B:Gradients/LeNet5/max_pool2d/MaxPool#1", "B:Gradients/LeNet5/relu/ReLU#3", EdgeKind::Data));
    CHECK(hasEdge(g, "B:Gradients/LeNet5/relu/ReLU#3", "B:Gradients/LeNet5/conv1/Conv2D#0", EdgeKind::Data));
    CHECK(hasEdge(g, "B:Gradients/LeNet5/conv1/Conv2D#0", "U:Momentum/Add#0", EdgeKind::Data));
    CHECK(g.findCluster("Gradients/LeNet5/conv1") >= 0);
    CHECK(g.findCluster("Momentum/conv1.weight") >= 0);
    CHECK(countKind(g, display::NodeKind::Input, Phase::Backward) == 1); // the sens seed
}

TEST_CASE("collapsing by depth folds each Cell into one node and merges its edges", "[display]")
{
    const DisplayGraph full = buildFromRecords(records());
    const DisplayGraph one = collapse(full, CollapseState{1, {}, {}});
    CHECK(one.nodes.size() < full.nodes.size());
    const auto conv1 = one.findNode("C:F:LeNet5/conv1");
    REQUIRE(conv1);
    CHECK(one.nodes[*conv1].kind == display::NodeKind::Cell);
    CHECK(one.nodes[*conv1].title == "conv1");
    CHECK(one.nodes[*conv1].detail == "1 op");
    CHECK(one.findCluster("LeNet5") >= 0);
    CHECK(one.findCluster("LeNet5/conv1") < 0);
    CHECK(one.findNode("C:B:Gradients/LeNet5/conv1")); // backward Cells fold like their forward twins
    // the one ReLU Cell LeNet5 calls four times is a Cell per call
    CHECK(one.findNode("C:F:LeNet5/relu"));
    REQUIRE(one.findNode("C:F:LeNet5/relu#4"));
    CHECK(one.nodes[*one.findNode("C:F:LeNet5/relu#4")].members.size() == 1);
    CHECK(one.nodes[*one.findNode("C:F:LeNet5/relu#4")].title == "relu");
    CHECK(one.countEdges(EdgeKind::CrossLink) > 0);
    for (const DisplayEdge& e : one.edges)
        CHECK(e.from != e.to);

    const DisplayGraph zero = collapse(full, CollapseState{0, {}, {}});
    REQUIRE(zero.clusters.size() == 1); // the backward pass's wrapper has depth -1
    CHECK(zero.clusters[0].path == "Gradients");
    CHECK(zero.findNode("C:F:LeNet5"));
    CHECK(zero.findNode("C:B:Gradients/LeNet5"));
    CHECK(zero.nodes.size() < one.nodes.size());

    CollapseState expandConv1{1, {"LeNet5/conv1"}, {}};
    const DisplayGraph some = collapse(full, expandConv1);
    CHECK(some.findNode("F:LeNet5/conv1/Conv2D#0"));
    CHECK_FALSE(some.findNode("F:LeNet5/conv2/Conv2D#0"));
}

TEST_CASE("the automatic collapse depth is the deepest one that fits the node budget", "[display]")
{
    const DisplayGraph full = buildFromRecords(records());
    CHECK(autoCollapseDepth(full, full.nodes.size()) == -1);
    const int depth = autoCollapseDepth(full, full.nodes.size() - 1);
    CHECK(depth >= 0);
    CHECK(collapse(full, CollapseState{depth, {}, {}}).nodes.size() <= full.nodes.size() - 1);
    CHECK(autoCollapseDepth(full, 1) == 0);
}

TEST_CASE("node states follow the executed records by key", "[display]")
{
    DisplayGraph g = buildFromRecords(records());
    const std::vector<debug::RecordPtr> firstThree(records().begin(), records().begin() + 3);
    g.setStates(firstThree, records()[3].get());
    CHECK(g.nodes[*g.findNode("F:LeNet5/conv1/Conv2D#0")].state == NodeState::Executed);
    CHECK(g.nodes[*g.findNode("F:LeNet5/conv2/Conv2D#0")].state == NodeState::Current);
    CHECK(g.nodes[*g.findNode("F:LeNet5/relu/ReLU#1")].state == NodeState::Pending);
    const DisplayGraph folded = collapse(g, CollapseState{1, {}, {}});
    CHECK(folded.nodes[*folded.findNode("C:F:LeNet5/conv2")].state == NodeState::Current);
    CHECK(folded.nodes[*folded.findNode("C:F:LeNet5/conv1")].state == NodeState::Executed);
    CHECK(folded.nodes[*folded.findNode("C:F:LeNet5/fc1")].state == NodeState::Pending);
}

TEST_CASE("a graph built from one step holds the records of a step that ran the same nodes only", "[display]")
{
    const DisplayGraph g = buildFromRecords(records());
    CHECK(g.holdsAll(records()));
    const std::vector<debug::RecordPtr> firstFive(records().begin(), records().begin() + 5);
    CHECK(g.holdsAll(firstFive));
    // A step that ran one node more than the template (the same op twice: occurrence #1 is new).
    std::vector<debug::RecordPtr> more = records();
    more.push_back(records().front());
    CHECK_FALSE(g.holdsAll(more));
    // A graph of the first five records does not hold the whole step.
    CHECK_FALSE(buildFromRecords(firstFive).holdsAll(records()));
}

TEST_CASE("the structure hash ignores states and sees structure", "[display]")
{
    DisplayGraph a = buildFromRecords(records());
    DisplayGraph b = a;
    b.setStates({}, nullptr);
    CHECK(a.structureHash() == b.structureHash());
    b.nodes[0].width += 10.0;
    CHECK(a.structureHash() != b.structureHash());
    CHECK(buildFromRecords(testing::lenet5StepRecords()).structureHash() == a.structureHash());
}

TEST_CASE("the graph-mode IR with its gradient graph becomes the same kind of display graph", "[display]")
{
    const Graph forward = parseGraph("graph @net(%x : f32[2, 3], %w : f32[2, 3] param) {\n"
                                     "  %0 : f32[2, 3] = Mul(%x, %w) @Net/fc\n"
                                     "  %1 : f32[2, 3] = Tanh(%0) @Net/act\n"
                                     "  %2 : f32[] = ReduceSum(%1) @Loss\n"
                                     "  return %2\n"
                                     "}\n");
    GradientSpec spec;
    spec.wrt = {forward.inputs()[1]};
    const DisplayGraph g = buildFromIr(gradientGraph(forward, spec));
    const auto mul = g.findNode("F:Net/fc/Mul#0");
    REQUIRE(mul);
    CHECK(g.nodes[*mul].detail == "[2, 3] f32");
    CHECK(g.findNode("P:F:w"));
    CHECK(hasEdge(g, "P:F:w", "F:Net/fc/Mul#0", EdgeKind::Data));
    CHECK(g.findCluster("Gradients/Net/fc") >= 0);
    CHECK(g.findCluster("Gradients/Gradients/Net/fc") < 0);
    CHECK(g.countEdges(EdgeKind::CrossLink) > 0);
    const auto r = std::count_if(g.nodes.begin(), g.nodes.end(), [](const DisplayNode& n) { return n.phase == Phase::Backward; });
    CHECK(r > 0);
}

TEST_CASE("every node shows its dtype and the half-precision ones are marked", "[display]")
{
    const Graph g16 = parseGraph("graph @net(%x : f16[2, 3], %i : i32[2]) {\n"
                                 "  %0 : f16[2, 3] = Tanh(%x) @Net/act\n"
                                 "  %1 : f32[2, 3] = Cast(%0) {dtype=Float32} @Net\n"
                                 "  return %1\n"
                                 "}\n");
    const DisplayGraph g = buildFromIr(g16);
    const auto tanh = g.findNode("F:Net/act/Tanh#0");
    const auto cast = g.findNode("F:Net/Cast#0");
    const auto x = g.findNode("I:F:0");
    const auto i = g.findNode("I:F:1");
    REQUIRE(tanh);
    REQUIRE(cast);
    REQUIRE(x);
    REQUIRE(i);
    CHECK(g.nodes[*tanh].detail == "[2, 3] f16");
    CHECK(g.nodes[*tanh].halfPrecision);
    CHECK(g.nodes[*cast].detail == "[2, 3] f32");
    CHECK_FALSE(g.nodes[*cast].halfPrecision);
    CHECK(g.nodes[*x].halfPrecision);
    CHECK(g.nodes[*i].detail == "[2] i32");
    CHECK_FALSE(g.nodes[*i].halfPrecision);
    // Folded, a Cell holding a half-precision op is marked too.
    CollapseState fold;
    fold.collapsed.insert("Net/act");
    const DisplayGraph folded = collapse(g, fold);
    const auto act = folded.findNode("C:F:Net/act");
    REQUIRE(act);
    CHECK(folded.nodes[*act].halfPrecision);
    CHECK(shapeAndDType(Shape{4}, DType::BFloat16) == "[4] bf16");
    CHECK(shapeAndDType(Shape{}, DType::Bool) == "[] bool");
}

TEST_CASE("parameter and input keys name the tensor they stand for, other keys none", "[display]")
{
    CHECK(sourceTensorOfKey("P:F:conv1.weight") == debug::TensorId::ofParameter("conv1.weight"));
    CHECK(sourceTensorOfKey("I:F:3") == debug::TensorId::ofExternal(3));
    CHECK(sourceTensorOfKey("I:B:12") == debug::TensorId::ofExternal(12));
    CHECK_FALSE(sourceTensorOfKey("F:LeNet5/conv1/Conv2D#0"));
    CHECK_FALSE(sourceTensorOfKey("I:F:x3"));
    CHECK_FALSE(sourceTensorOfKey("P:F"));
}

TEST_CASE("a node a jvp reached is recorded with its tangents and drawn with value and tangent", "[display]")
{
    debug::Recorder recorder(debug::RecorderOptions{std::size_t{1} << 26, true, 4});
    recorder.stepStarted(1);
    {
        ObserverGuard attach(&recorder);
        JvpTracer tracer;
        tracer.install();
        const Tensor x = tracer.seed(Tensor::fromDoubles(Shape{1}, {0.5}, DType::Float64),
                                     Tensor::fromDoubles(Shape{1}, {2.0}, DType::Float64));
        const Tensor y = gradstep::exp(x);
        tracer.uninstall();
        REQUIRE(tracer.tangent(y));
    }
    const std::vector<debug::RecordPtr> recs = recorder.currentRecords();
    REQUIRE(recs.size() == 1);
    const debug::NodeRecord& r = *recs[0];
    REQUIRE(r.hasTangents());
    CHECK(r.tangentsByRule);
    REQUIRE(r.inputTangents.size() == 1);
    CHECK(r.inputTangents[0].snapshot.at(0) == 2.0);
    CHECK(r.inputTangents[0].id == r.inputs[0].id);
    REQUIRE(r.outputTangents.size() == 1);
    CHECK(r.outputTangents[0].snapshot.at(0) == Approx(2.0 * std::exp(0.5)).epsilon(1e-15));
    CHECK(r.outputTangents[0].id == r.outputs[0].id);
    const DisplayGraph g = buildFromRecords(recs, BuildOptions{GraphPart::Forward});
    const auto node = g.findNode("F:Exp#0");
    REQUIRE(node);
    CHECK(g.nodes[*node].tangent == "y 1.65  dy 3.3");
}
