// `gradstep compare --what ranks`: the first step on N ranks (rank 0's view, the gradients its
// optimizer received after the all-reduce) against one rank on the full batch (Note [The ranks
// what-if] in core/session/compare_ranks.cpp), on tests/dist/compare_step.py.
// SPDX-License-Identifier: MIT
#include "tests/app/compare_cli.h"

#include "io/json.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <iterator>

using namespace gradstep;
using namespace gradstep::test;

namespace {

std::string stepScript() { return quoted(sourcePath("tests/dist/compare_step.py")); }

/// The comparison's report after `compare --what ranks ARGS`.
Json compareRanks(const std::string& args, CommandResult& c)
{
    ScratchDir dir;
    const auto report = dir.file("r.json");
    c = compareCli(stepScript() + " --what ranks --quiet --report " + quoted(report) + " " + args);
    return std::filesystem::exists(report) ? Json::parseFile(report.string()) : Json(nullptr);
}

} // namespace

TEST_CASE("compare --what ranks: two ranks with gradients_mean take the full batch's step")
{
    CommandResult c;
    const Json r = compareRanks("", c);
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("compare ranks: A = 2 ranks (rank 0), B = 1 rank, full batch (2 x each batch)"));
    CHECK_THAT(c.out, Catch::Contains("Equal within float32 tolerance"));
    REQUIRE(r["what"].asString() == "ranks");
    REQUIRE(r["diff"].asArray().size() == 4); // two Dense layers: weight and bias each
    for (const Json& d : r["diff"].asArray()) {
        CHECK(d["rel_diff"].asNumber() <= 1e-5);
        CHECK(d["norm_a"].asNumber() > 1e-4); // a real gradient, not two zeros
    }
    // Rank 0's loss is its shard's: not the full batch's.
    CHECK(r["a"]["loss"].asNumber() != r["b"]["loss"].asNumber());
}

TEST_CASE("compare --what ranks: with gradients_mean off the two ranks' gradients are twice the full batch's")
{
    CommandResult c;
    const Json r = compareRanks("-- sum", c);
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("are 2 times the full batch's (sum = 2 x mean)"));
    CHECK_THAT(c.out, Catch::Contains("gradients_mean is off"));
    for (const Json& d : r["diff"].asArray()) {
        CHECK(d["verdict"].asString() == "different");
        CHECK(d["norm_a"].asNumber() == Approx(2.0 * d["norm_b"].asNumber()).epsilon(1e-5));
    }
}

TEST_CASE("compare --what ranks --ranks 4: four ranks with gradients_mean take the full batch's step, summed four times it")
{
    CommandResult c;
    const Json mean = compareRanks("--ranks 4", c);
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("A = 4 ranks (rank 0), B = 1 rank, full batch (4 x each batch)"));
    CHECK_THAT(c.out, Catch::Contains("Equal within float32 tolerance"));
    for (const Json& d : mean["diff"].asArray())
        CHECK(d["rel_diff"].asNumber() <= 1e-5);
    const Json sum = compareRanks("--ranks 4 -- sum", c);
    CHECK_THAT(c.out, Catch::Contains("are 4 times the full batch's (sum = 4 x mean)"));
    for (const Json& d : sum["diff"].asArray())
        CHECK(d["norm_a"].asNumber() == Approx(4.0 * d["norm_b"].asNumber()).epsilon(1e-5));
}

TEST_CASE("compare --what ranks --steps 3: the ranks and the full batch never part, the losses aside")
{
    CommandResult c;
    const Json r = compareRanks("--steps 3", c);
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("the runs never part over 3 step(s)"));
    CHECK(r["first_divergence"].isNull());
    REQUIRE(r["a"]["steps"].asArray().size() == 3);
    REQUIRE(r["b"]["steps"].asArray().size() == 3);
    for (std::size_t step = 0; step < 3; ++step) {
        const Json& a = r["a"]["steps"][step];
        const Json& b = r["b"]["steps"][step];
        // Rank 0's loss is its shard's; the gradients the optimizer applied are the full batch's.
        CHECK(a["loss"].asNumber() != b["loss"].asNumber());
        for (std::size_t p = 0; p < a["params"].asArray().size(); ++p)
            CHECK(a["params"][p]["grad_norm"].asNumber()
                  == Approx(b["params"][p]["grad_norm"].asNumber()).epsilon(1e-5));
    }
}

TEST_CASE("compare --what ranks: a script that does not all-reduce is not the full batch's step")
{
    ScratchDir dir;
    // The tutorial's script without DistributedGradReducer: each rank steps on its own shard.
    std::string text;
    {
        std::ifstream in(sourcePath("tests/dist/compare_step.py"));
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    const std::string reduced = "optimizer(reducer(grads))";
    REQUIRE(text.find(reduced) != std::string::npos);
    text.replace(text.find(reduced), reduced.size(), "optimizer(grads)");
    const auto script = dir.write("no_reducer.py", text);
    const CommandResult c = compareCli(quoted(script) + " --what ranks --quiet");
    INFO(c.out);
    REQUIRE(c.status == 0);
    CHECK_THAT(c.out, Catch::Contains("step is not the full batch's"));
    CHECK_THAT(c.out, Catch::Contains("different"));
}

TEST_CASE("compare --what ranks: a rank that fails before its step is side A's error")
{
    ScratchDir dir;
    const auto script = dir.write("fails.py",
        "import mindspore as ms\nfrom mindspore import ops, Tensor\n"
        "from mindspore.communication import init, get_rank\ninit()\n"
        "if get_rank() == 1:\n    raise ValueError('rank one has no data')\n"
        "ops.AllReduce()(Tensor([1.0]))  # rank 0 waits for rank 1 here\n"
        "print(ms.grad(lambda t: ops.sum(t * t))(Tensor([1.0])))\n");
    const CommandResult c = compareCli(quoted(script) + " --what ranks");
    INFO(c.out);
    CHECK(c.status == 1);
    CHECK_THAT(c.out, Catch::Contains("A (2 ranks (rank 0)) gave no step"));
    CHECK_THAT(c.out, Catch::Contains("rank one has no data"));
}

TEST_CASE("compare --ranks needs --what ranks and a count from 2 to 64")
{
    const CommandResult other = compareCli(stepScript() + " --what mode --ranks 2");
    CHECK(other.status == 2);
    CHECK_THAT(other.out, Catch::Contains("--ranks goes with --what ranks"));
    const CommandResult one = compareCli(stepScript() + " --what ranks --ranks 1");
    CHECK(one.status == 2);
    CHECK_THAT(one.out, Catch::Contains("--ranks needs a whole number from 2 to 64"));
}
