// The seeded random generator behind dropout and the random ops. The same seed gives bit-identical
// streams on every machine: the engine is mt19937_64 and the distributions are written here,
// because the standard library's distributions differ between implementations.
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <random>

namespace gradstep {

class Generator {
public:
    explicit Generator(std::uint64_t seed = 0) : m_engine(seed) {}
    void seed(std::uint64_t seed) { m_engine.seed(seed); m_spare = false; }

    /// Uniform in [0, 1) with 53 random bits.
    double uniform();
    double uniform(double low, double high) { return low + (high - low) * uniform(); }
    /// Standard normal by the Box-Muller transform (pairs are cached).
    double normal();
    double normal(double mean, double stddev) { return mean + stddev * normal(); }
    std::uint64_t next() { return m_engine(); }

private:
    std::mt19937_64 m_engine;
    bool m_spare = false;
    double m_spareValue = 0.0;
};

/// The process-wide generator that mindspore.set_seed reseeds (per thread: a script owns one);
/// dropout and the random ops draw from it. Initializers take their seeds from init_seeds.h.
Generator& globalGenerator();
/// Reseeds this thread's generator and its initializer seed stream (the latter with the low 32
/// bits, as np.random.seed).
void setSeed(std::uint64_t seed);

} // namespace gradstep
