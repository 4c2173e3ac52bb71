// Tests of the op timing behind mindspore.Profiler (core/profile/op_timer.cpp).
// SPDX-License-Identifier: MIT
#include "profile/op_timer.h"

#include "autodiff/context.h"
#include "graph/executor.h"
#include "graph/text_parser.h"
#include "ops/elementwise.h"

#include <catch2/catch.hpp>

using namespace gradstep;

namespace {
std::vector<std::pair<std::string, std::size_t>> namesAndCounts()
{
    std::vector<std::pair<std::string, std::size_t>> out;
    for (const profile::TimedOp& op : profile::opTimings()) {
        out.emplace_back(op.fullName, op.runs.size());
        for (const profile::OpRun& run : op.runs)
            CHECK(run.durationNs > 0);
    }
    return out;
}
} // namespace

TEST_CASE("op timing records each PyNative op run between start and stop under its scope")
{
    const Tensor x = Tensor::zeros({2});
    neg(x); // before start: not recorded
    profile::startOpTiming();
    {
        ScopeGuard scope("Net");
        for (int i = 0; i < 3; ++i)
            exp(neg(x));
    }
    neg(x); // another scope, another op
    profile::stopOpTiming();
    neg(x);
    CHECK(namesAndCounts()
          == std::vector<std::pair<std::string, std::size_t>>{
              {"Default/Net/Neg-op0", 3}, {"Default/Net/Exp-op1", 3}, {"Default/Neg-op2", 1}});
    profile::startOpTiming(); // starts empty
    profile::stopOpTiming();
    CHECK(profile::opTimings().empty());
}

TEST_CASE("op timing names compiled nodes by their scope, backward ones under Gradients/Default")
{
    Graph g = parseGraph("graph @g(%x : f32[2]) {\n"
                         "  %0 : f32[2] = Neg(%x) @Net/a\n"
                         "  %1 : f32[2] = Exp(%0) [backward] @Gradients/Net/b\n"
                         "  return %1\n"
                         "}\n");
    profile::startOpTiming();
    executeGraph(g, TensorList{Tensor::zeros({2})});
    executeGraph(g, TensorList{Tensor::zeros({2})});
    profile::stopOpTiming();
    CHECK(namesAndCounts()
          == std::vector<std::pair<std::string, std::size_t>>{
              {"Default/Net/a/Neg-op0", 2}, {"Gradients/Default/Net/b/Exp-op1", 2}});
    profile::clearOpTimings();
}
