// Tests of the node groups that may run at once (core/graph/parallel_groups.cpp).
// SPDX-License-Identifier: MIT
#include "graph/parallel_groups.h"

#include "graph/text_parser.h"

#include <catch2/catch.hpp>

using namespace gradstep;

namespace {

std::vector<std::pair<NodeId, NodeId>> ranges(const std::vector<NodeGroup>& groups)
{
    std::vector<std::pair<NodeId, NodeId>> r;
    for (const NodeGroup& g : groups)
        r.emplace_back(g.begin, g.end);
    return r;
}

} // namespace

TEST_CASE("consecutive nodes that read nothing of each other form one group")
{
    // A Dense layer's backward: the bias gradient, the weight gradient and the input gradient all
    // read dy only; the next node reads one of them.
    const Graph g = parseGraph("graph @g(%dy : f32[64, 256], %x : f32[64, 784], %w : f32[256, 784]) {\n"
                               "  %0 : f32[64, 256] = Neg(%dy)\n"
                               "  %1 : f32[256] = ReduceSum(%0) {axis=(0,)}\n"
                               "  %2 : f32[256, 784] = MatMul(%0, %x) {transpose_a=true, transpose_b=false}\n"
                               "  %3 : f32[64, 784] = MatMul(%0, %w) {transpose_a=false, transpose_b=false}\n"
                               "  %4 : f32[64, 784] = Exp(%3)\n"
                               "  return %1, %2, %4\n"
                               "}\n");
    const std::vector<NodeGroup> groups = nodeGroups(g);
    CHECK(ranges(groups) == std::vector<std::pair<NodeId, NodeId>>{{0, 1}, {1, 4}, {4, 5}});
    CHECK_FALSE(groups[0].parallel);
    CHECK(groups[1].parallel);
    CHECK_FALSE(groups[2].parallel);
    CHECK(planSteps(g) == std::vector<std::uint32_t>{0, 1, 1, 1, 2});
}

TEST_CASE("a group is parallel only when two of its nodes are large enough to be worth it")
{
    const Graph g = parseGraph("graph @g(%x : f32[8], %y : f32[8]) {\n"
                               "  %0 : f32[8] = Sin(%x)\n"
                               "  %1 : f32[8] = Cos(%y)\n"
                               "  return %0, %1\n"
                               "}\n");
    const std::vector<NodeGroup> groups = nodeGroups(g);
    REQUIRE(groups.size() == 1);
    CHECK(groups[0].end == 2);
    CHECK_FALSE(groups[0].parallel);
    CHECK(planSteps(g) == std::vector<std::uint32_t>{0, 1}); // one after the other
}

TEST_CASE("a chain never groups, and ops that write an input keep their place")
{
    const Graph chain = parseGraph("graph @g(%x : f32[128, 128]) {\n"
                                   "  %0 : f32[128, 128] = Sin(%x)\n"
                                   "  %1 : f32[128, 128] = Cos(%0)\n"
                                   "  %2 : f32[128, 128] = Exp(%1)\n"
                                   "  return %2\n"
                                   "}\n");
    CHECK(nodeGroups(chain).size() == 3);

    const Graph update = parseGraph(
        "graph @g(%w : f32[128, 128], %lr : f32[], %d : f32[128, 128], %y : f32[128, 128]) {\n"
        "  %0 : f32[128, 128] = ApplyGradientDescent(%w, %lr, %d)\n"
        "  %1 : f32[128, 128] = Exp(%y)\n"
        "  %2 : f32[128, 128] = Sin(%y)\n"
        "  return %0, %1, %2\n"
        "}\n");
    const std::vector<NodeGroup> groups = nodeGroups(update);
    CHECK(ranges(groups) == std::vector<std::pair<NodeId, NodeId>>{{0, 1}, {1, 3}});
    CHECK(groups[1].parallel);
}
