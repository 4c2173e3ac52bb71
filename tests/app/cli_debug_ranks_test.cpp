// `gradstep debug --ranks N`: every rank under its own debugger, stopped at the same node, rank 0
// saying so, and each rank's report with its own values (or one rank's with --rank K).
// SPDX-License-Identifier: MIT
#include "tests/app/cli_support.h"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

using namespace gradstep::test;

namespace {

/// The lines of `text` that start with "[rank k] ", without that prefix.
std::string linesOfRank(const std::string& text, int rank)
{
    const std::string prefix = "[rank " + std::to_string(rank) + "] ";
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line))
        if (line.rfind(prefix, 0) == 0)
            out += line.substr(prefix.size()) + "\n";
    return out;
}

std::string stepScript() { return shellQuote(sourcePath("tests/dist/compare_step.py").string()); }

} // namespace

TEST_CASE("debug --ranks 2 stops both ranks at the first AllReduce and shows each rank's own gradient")
{
    const CommandResult r = runGradstep("debug " + stepScript() + " --ranks 2 --break op:AllReduce --quiet");
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.find("[rank 0] [gradstep] all 2 ranks paused at the same node: ") != std::string::npos);
    CHECK(r.err.find("AllReduce") != std::string::npos);
    const std::string zero = linesOfRank(r.out, 0), one = linesOfRank(r.out, 1);
    REQUIRE(zero.find("stopped: ") != std::string::npos);
    REQUIRE(one.find("stopped: ") != std::string::npos);
    // The same node on both ranks...
    const auto nodeLine = [](const std::string& report) {
        const std::size_t at = report.find("  node ");
        return at == std::string::npos ? std::string() : report.substr(at, report.find('\n', at) - at);
    };
    CHECK_FALSE(nodeLine(zero).empty());
    CHECK(nodeLine(zero) == nodeLine(one));
    // ...whose input, the rank's gradient before the all-reduce, differs between the shards.
    CHECK(zero != one);
}

TEST_CASE("debug --ranks 2 --rank 1 prints rank 1's report only")
{
    const CommandResult r = runGradstep("debug " + stepScript() + " --ranks 2 --rank 1 --break op:AllReduce --quiet");
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    CHECK(linesOfRank(r.out, 1).find("stopped: ") != std::string::npos);
    CHECK(linesOfRank(r.out, 0).find("stopped: ") == std::string::npos);
}

TEST_CASE("debug --ranks says where each rank stopped when they did not pause at the same node")
{
    ScratchDir dir;
    const auto script = dir.write("one_rank_only.py",
        "import numpy as np\nimport mindspore as ms\nfrom mindspore import ops, Tensor\n"
        "from mindspore.communication import init, get_rank\ninit()\n"
        "x = Tensor(np.ones(3, np.float32))\n"
        "if get_rank() == 0:\n"
        "    x = ops.exp(x)\n"
        "print(ms.grad(lambda t: ops.sum(t * t))(x))\n");
    const CommandResult r = runGradstep("debug " + shellQuote(script.string()) + " --ranks 2 --break op:Exp --quiet");
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(r.err.find("the 2 ranks did not pause at the same node: rank 0 node #") != std::string::npos);
    CHECK(r.err.find("rank 1 not paused at a node (finished)") != std::string::npos);
}

TEST_CASE("debug --rank must name one of the ranks")
{
    const CommandResult r = runGradstep("debug " + stepScript() + " --ranks 2 --rank 2");
    CHECK(r.status == 2);
    CHECK(r.err.find("--rank 2 is not one of the 2 ranks") != std::string::npos);
}
