// Tests of the initializer seed sources (core/random/init_seeds.cpp). SPDX-License-Identifier: MIT
#include "random/init_seeds.h"

#include "random/generator.h"

#include <catch2/catch.hpp>

using namespace gradstep;

namespace {

class Counting : public InitSeedSource {
public:
    std::uint64_t nextSeed() override { return ++m_count; }

private:
    std::uint64_t m_count = 0;
};

} // namespace

TEST_CASE("the NumPy stream answers as np.random.randint(1, 2**63, dtype=int64) after np.random.seed(s)")
{
    // Printed by NumPy 1.24 (the legacy RandomState stream is frozen across NumPy versions).
    NumpySeedStream seeds(1);
    CHECK(seeds.nextSeed() == 7692698082559361260ULL);
    CHECK(seeds.nextSeed() == 4064269471072392265ULL);
    CHECK(seeds.nextSeed() == 2109959069025162ULL);
    CHECK(seeds.nextSeed() == 5577051506714156678ULL);
    seeds.seed(1);
    CHECK(seeds.nextSeed() == 7692698082559361260ULL);
}

TEST_CASE("setSeed reseeds this thread's seed stream, and a scope installs another source")
{
    setSeed(1);
    CHECK(initSeedSource().nextSeed() == 7692698082559361260ULL);
    Counting counting;
    {
        InitSeedScope scope(counting);
        CHECK(initSeedSource().nextSeed() == 1);
        CHECK(initSeedSource().nextSeed() == 2);
    }
    // The thread's own stream resumes where it was.
    CHECK(initSeedSource().nextSeed() == 4064269471072392265ULL);
}
