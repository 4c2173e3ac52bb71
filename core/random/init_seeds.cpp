// Initializer seed sources. SPDX-License-Identifier: MIT
#include "random/init_seeds.h"

namespace gradstep {

namespace {

struct ThreadSeeds {
    NumpySeedStream own;
    InitSeedSource* installed = nullptr;
};

ThreadSeeds& threadSeeds()
{
    thread_local ThreadSeeds seeds;
    return seeds;
}

} // namespace

std::uint64_t NumpySeedStream::nextSeed()
{
    // NumPy's masked rejection for a range of 2^63 - 2 (bounded_masked_uint64 in its legacy path).
    constexpr std::uint64_t range = (std::uint64_t{1} << 63) - 2;
    constexpr std::uint64_t mask = (std::uint64_t{1} << 63) - 1;
    std::uint64_t value;
    do {
        const std::uint64_t high = m_engine();
        const std::uint64_t low = m_engine();
        value = ((high << 32) | low) & mask;
    } while (value > range);
    return 1 + value;
}

InitSeedSource& initSeedSource()
{
    ThreadSeeds& seeds = threadSeeds();
    return seeds.installed ? *seeds.installed : seeds.own;
}

void seedThreadInitSeeds(std::uint32_t seed) { threadSeeds().own.seed(seed); }

InitSeedScope::InitSeedScope(InitSeedSource& source) : m_previous(threadSeeds().installed)
{
    threadSeeds().installed = &source;
}

InitSeedScope::~InitSeedScope() { threadSeeds().installed = m_previous; }

} // namespace gradstep
