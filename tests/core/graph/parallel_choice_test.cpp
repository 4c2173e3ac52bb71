// Tests of the measured choice between running a group at once or one by one
// (core/graph/parallel_choice.cpp). SPDX-License-Identifier: MIT
#include "graph/parallel_choice.h"

#include <catch2/catch.hpp>

using namespace gradstep;

namespace {

// Runs `runs` times with the given times per way; returns how many runs were parallel.
int drive(ParallelChoice& choice, int runs, double parallelSeconds, double serialSeconds)
{
    int parallel = 0;
    for (int i = 0; i < runs; ++i) {
        const bool p = choice.nextParallel();
        parallel += p;
        choice.record(p, p ? parallelSeconds : serialSeconds);
    }
    return parallel;
}

} // namespace

TEST_CASE("the choice tries both ways, then keeps the faster and probes the other now and then")
{
    ParallelChoice choice;
    CHECK(drive(choice, ParallelChoice::kWarmup, 1e-4, 2e-4) == ParallelChoice::kWarmup / 2);
    // Parallel is faster: 1 run in kProbeEvery goes serial.
    const int runs = 10 * ParallelChoice::kProbeEvery;
    CHECK(drive(choice, runs, 1e-4, 2e-4) == runs - 10);

    // The machine gets busy and parallel becomes slower: the probes notice and the choice flips.
    drive(choice, 200 * ParallelChoice::kProbeEvery, 3e-4, 2e-4);
    CHECK(choice.estimate(true) > choice.estimate(false));
    CHECK(drive(choice, runs, 3e-4, 2e-4) == 10);
}

TEST_CASE("one slow run does not flip the choice")
{
    ParallelChoice choice;
    drive(choice, 65, 1e-4, 2e-4); // the next run is not a probe
    const bool p = choice.nextParallel();
    REQUIRE(p);
    choice.record(true, 1.0); // a preempted worker: ten thousand times the usual
    CHECK(choice.estimate(true) < choice.estimate(false));
    CHECK(choice.nextParallel());
}
