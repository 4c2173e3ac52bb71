// `gradstep run --ranks N` and `mpirun -n N gradstep run`: data-parallel scripts over Open MPI
// (tests/dist). Each script asserts its own numbers on every rank; these tests check what the
// user sees: each rank's lines, rank 0's table with a column per rank, the exit status, and that
// a rank that raises, dies or never arrives stops the job with a clear error instead of a hang.
// SPDX-License-Identifier: MIT
#include "tests/app/cli_support.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <string>

using namespace gradstep::test;

namespace {

CommandResult runRanks(int ranks, const std::string& script, const std::string& scriptArgs = "")
{
    return runGradstep("run " + shellQuote(sourcePath(script).string()) + " --ranks " + std::to_string(ranks)
                       + (scriptArgs.empty() ? "" : " -- " + scriptArgs));
}

std::size_t count(const std::string& text, const std::string& what)
{
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

/// Seconds a call takes.
template <class F> double timed(F&& f)
{
    const auto start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Sets an environment variable for one scope (the ranks inherit it through mpirun).
class ScopedEnvironment {
public:
    ScopedEnvironment(const char* name, const std::string& value) : m_name(name)
    {
        if (const char* old = std::getenv(name))
            m_old = old;
        m_had = std::getenv(name) != nullptr;
        setenv(name, value.c_str(), 1);
    }
    ~ScopedEnvironment()
    {
        if (m_had)
            setenv(m_name, m_old.c_str(), 1);
        else
            unsetenv(m_name);
    }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
    const char* m_name;
    std::string m_old;
    bool m_had = false;
};

} // namespace

TEST_CASE("two ranks: the collectives give their values and MindSpore's gradients")
{
    const CommandResult r = runRanks(2, "tests/dist/collectives.py");
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(count(r.out, "[rank 0] collectives ok on rank 0 of 2") == 1);
    CHECK(count(r.out, "[rank 1] collectives ok on rank 1 of 2") == 1);
}

TEST_CASE("four ranks: the collectives give their values and MindSpore's gradients")
{
    const CommandResult r = runRanks(4, "tests/dist/collectives.py");
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    for (int k = 0; k < 4; ++k)
        CHECK(count(r.out, "[rank " + std::to_string(k) + "] collectives ok on rank " + std::to_string(k) + " of 4") == 1);
}

TEST_CASE("two ranks: a TrainOneStepCell step with gradients_mean equals the full-batch step")
{
    const CommandResult r = runRanks(2, "tests/dist/one_step.py", "mean cell");
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(count(r.out, "of 2, mean, cell: max relative difference to the full-batch step") == 2);
    // Rank 0 shows the table for both ranks, with each rank's gradient norm before the all-reduce.
    CHECK(count(r.out, "|grad| rank 0") == 1);
    CHECK(count(r.out, "|grad| rank 1") == 1);
    CHECK(count(r.out, "[rank 0] step ") == 1);
    CHECK(count(r.out, "[rank 1] step ") == 0);
}

TEST_CASE("two ranks: summed gradients through Model equal the full-batch step with the loss times 2")
{
    const CommandResult r = runRanks(2, "tests/dist/one_step.py", "sum model");
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(count(r.out, "of 2, sum, model: max relative difference to the full-batch step") == 2);
}

TEST_CASE("four ranks: a Model step with gradients_mean equals the full-batch step")
{
    const CommandResult r = runRanks(4, "tests/dist/one_step.py", "mean model");
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(count(r.out, "of 4, mean, model: max relative difference to the full-batch step") == 4);
    CHECK(count(r.out, "|grad| rank 3") == 1);
}

TEST_CASE("four ranks: summed gradients through TrainOneStepCell equal the full-batch step with the loss times 4")
{
    const CommandResult r = runRanks(4, "tests/dist/one_step.py", "sum cell");
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(count(r.out, "of 4, sum, cell: max relative difference to the full-batch step") == 4);
}

TEST_CASE("two and four ranks: each rank reads its own shard and the shards do not overlap")
{
    for (int ranks : {2, 4}) {
        const CommandResult r = runRanks(ranks, "tests/dist/sharding.py");
        INFO(r.out << r.err);
        CHECK(r.status == 0);
        CHECK(count(r.out, "sharding ok on rank") == static_cast<std::size_t>(ranks));
    }
}

TEST_CASE("two and four ranks: batch(per_batch_map) slices each global batch by rank, the slices disjoint")
{
    for (int ranks : {2, 4}) {
        const CommandResult r = runRanks(ranks, "tests/dist/per_batch_map.py");
        INFO(r.out << r.err);
        CHECK(r.status == 0);
        CHECK(count(r.out, "per_batch_map slices ok on rank") == static_cast<std::size_t>(ranks));
    }
}

TEST_CASE("a rank that raises stops every rank with its diagnostic and exit status 1")
{
    CommandResult r;
    const double seconds = timed([&] { r = runRanks(2, "tests/dist/rank_raises.py"); });
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(count(r.err, "[rank 1] ") > 0);
    CHECK(count(r.err, "rank_raises.py:8:5: error: ValueError: rank 1 found a bad shard") == 1);
    CHECK(count(r.out, "passed the all-reduce") == 0);
    CHECK(seconds < 60);
}

TEST_CASE("a rank killed in the middle of a step ends the job with exit status 1 and names the collective")
{
    CommandResult r;
    const double seconds = timed([&] { r = runRanks(2, "tests/dist/rank_killed.py"); });
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(count(r.out + r.err, "rank 1 with PID") == 1); // mpirun names the rank that died
    CHECK(count(r.err, "[rank 0] gradstep: stopped while waiting in AllReduce #1 of group 'hccl_world_group': another "
                       "rank ended the job") == 1);
    CHECK(count(r.out, "finished the step") == 0);
    CHECK(seconds < 60);
}

TEST_CASE("a rank that never reaches a collective is named when the timeout passes")
{
    ScopedEnvironment timeout("GRADSTEP_COLLECTIVE_TIMEOUT", "2");
    CommandResult r;
    const double seconds = timed([&] { r = runRanks(2, "tests/dist/rank_hangs.py"); });
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(count(r.err, "For 'AllReduce', the collective timed out after 2 s: rank(s) 1 did not reach "
                       "AllReduce #1 of group 'hccl_world_group'") == 1);
    CHECK(count(r.err, "rank_hangs.py:11:1") == 1);
    CHECK(seconds < 60);
}

TEST_CASE("without a launcher init() runs the script as one rank and says so once")
{
    const CommandResult r = runGradstep("run " + shellQuote(sourcePath("tests/dist/one_step.py").string())
                                        + " -- mean cell");
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(count(r.out, "rank 0 of 1, mean, cell") == 1);
    CHECK(count(r.err, "no launcher (mpirun) started this process") == 1);
    CHECK(count(r.out, "[rank") == 0);
}

TEST_CASE("mpirun -n 2 gradstep run works as --ranks 2 does")
{
    ScratchDir scratch;
    const std::string command = "cd " + shellQuote(GRADSTEP_SOURCE_DIR) + " && mpirun -n 2 --oversubscribe "
                                + "--bind-to none --allow-run-as-root " + shellQuote(GRADSTEP_BINARY) + " run "
                                + "tests/dist/sharding.py >" + shellQuote(scratch.file("out").string()) + " 2>&1";
    const int status = std::system(command.c_str());
    std::string out;
    {
        std::FILE* file = std::fopen(scratch.file("out").string().c_str(), "r");
        REQUIRE(file);
        char buffer[4096];
        for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file)) > 0;)
            out.append(buffer, n);
        std::fclose(file);
    }
    INFO(out);
    CHECK(status == 0);
    CHECK(count(out, "[rank 0] sharding ok on rank 0 of 2") == 1);
    CHECK(count(out, "[rank 1] sharding ok on rank 1 of 2") == 1);
}

TEST_CASE("launching ranks without mpirun on PATH says which package has it")
{
    ScopedEnvironment path("PATH", "/nonexistent");
    const CommandResult r = runRanks(2, "tests/dist/sharding.py");
    CHECK(r.status == 127);
    CHECK(count(r.err, "apt-get install openmpi-bin") == 1);
}

TEST_CASE("a rank count outside 1 to 1024 is a usage error")
{
    const CommandResult r = runGradstep("run tests/dist/sharding.py --ranks 0");
    CHECK(r.status == 2);
    CHECK(count(r.err, "--ranks needs a whole number from 1 to 1024") == 1);
}

TEST_CASE("the data-parallel sample trains LeNet5 on two ranks headless")
{
    const CommandResult r = runRanks(2, "samples/data_parallel.py");
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(count(r.out, "[rank 0] rank 0: the 2 ranks hold the same weights") == 1);
    CHECK(count(r.out, "[rank 1] rank 1: the 2 ranks hold the same weights") == 1);
    CHECK(count(r.out, "|grad| rank 1") == 1);
}

TEST_CASE("ranks-diverge names the first parameter and step when the ranks are seeded differently")
{
    const CommandResult r = runGradstep("run " + shellQuote(sourcePath("tests/dist/ranks_diverge.py").string())
                                        + " --ranks 2 --watch ranks-diverge -- per-rank");
    INFO(r.out << r.err);
    CHECK(r.status == 1);
    CHECK(count(r.err, "[rank 0] [gradstep] ranks-diverge: after the update of step 1, parameter '0.weight' "
                       "differs between ranks: rank 1 is") == 1);
    CHECK(count(r.out, "trained 3 steps") == 0);
}

TEST_CASE("ranks-diverge stays silent when every rank is seeded alike or parameter_broadcast is set")
{
    for (const char* seeding : {"same", "per-rank-broadcast"}) {
        const CommandResult r = runGradstep("run " + shellQuote(sourcePath("tests/dist/ranks_diverge.py").string())
                                            + " --ranks 2 --watch ranks-diverge:0 -- " + seeding);
        INFO(seeding << "\n" << r.out << r.err);
        CHECK(r.status == 0);
        CHECK(count(r.out, "trained 3 steps") == 2);
        CHECK(count(r.err, "ranks-diverge") == 0);
    }
}

TEST_CASE("the data-parallel sample trains on two ranks in graph mode too")
{
    const CommandResult r = runGradstep("run " + shellQuote(sourcePath("samples/data_parallel.py").string())
                                        + " --ranks 2 --mode graph");
    INFO(r.out << r.err);
    CHECK(r.status == 0);
    CHECK(count(r.out, "the 2 ranks hold the same weights") == 2);
}
