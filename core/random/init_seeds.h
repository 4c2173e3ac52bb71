// Where random initializers take their seeds. MindSpore 2.2 draws one per initializer call from
// NumPy's global RandomState (randint(low=1, high=2**63, dtype=int64)), so np.random.seed and
// mindspore.set_seed fix the weights. A script run installs a source that asks NumPy itself;
// without Python, each thread has a NumpySeedStream that reproduces those draws from a 32-bit seed.
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <random>

namespace gradstep {

class InitSeedSource {
public:
    virtual ~InitSeedSource() = default;
    /// The seed for one initializer call, in [1, 2^63).
    virtual std::uint64_t nextSeed() = 0;
};

/// NumPy's legacy RandomState seeded with np.random.seed(seed), answering
/// randint(low=1, high=2**63, dtype=int64): MT19937 (whose seeding std::mt19937 shares), two
/// words as one 64-bit value (first word high), masked to 63 bits and redrawn above 2^63 - 2.
class NumpySeedStream : public InitSeedSource {
public:
    explicit NumpySeedStream(std::uint32_t seed = 0) : m_engine(seed) {}
    void seed(std::uint32_t seed) { m_engine.seed(seed); }
    std::uint64_t nextSeed() override;

private:
    std::mt19937 m_engine;
};

/// This thread's source: the innermost InitSeedScope's, else the thread's own NumpySeedStream
/// (seeded 0 until setSeed).
InitSeedSource& initSeedSource();
/// Reseeds this thread's own NumpySeedStream (setSeed does, with the low 32 bits of its seed).
void seedThreadInitSeeds(std::uint32_t seed);

/// Puts a source in charge of this thread's initializer seeds for the scope's lifetime; the one
/// before is back afterwards. The source must outlive the scope.
class InitSeedScope {
public:
    explicit InitSeedScope(InitSeedSource& source);
    ~InitSeedScope();
    InitSeedScope(const InitSeedScope&) = delete;
    InitSeedScope& operator=(const InitSeedScope&) = delete;

private:
    InitSeedSource* m_previous;
};

} // namespace gradstep
