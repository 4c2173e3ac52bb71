// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11), the
// counter-based generator behind MindSpore's initializers, and the stream of 32-bit words
// MindSpore draws from it for one seed. SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>

namespace gradstep {

using PhiloxCounter = std::array<std::uint32_t, 4>;
using PhiloxKey = std::array<std::uint32_t, 2>;

/// The Philox4x32 bijection with 10 rounds: four words from a 128-bit counter and a 64-bit key,
/// as Random123 defines it (its known-answer vectors hold).
PhiloxCounter philox4x32_10(PhiloxCounter counter, PhiloxKey key);

/// The words MindSpore's Philox hands out for one 64-bit seed: block n is the bijection of the
/// counter (n low, n high, seed low, seed high) under the key (seed low, seed high), and its four
/// words come out in order. Block n depends on n alone, so any position can be reached at once.
class PhiloxStream {
public:
    explicit PhiloxStream(std::uint64_t seed, std::uint64_t firstWord = 0);
    std::uint32_t next();

private:
    void loadBlock();

    std::uint64_t m_seed;
    std::uint64_t m_block; ///< the next block to compute
    unsigned m_index;      ///< the next word's place in m_words; 4 = all used
    PhiloxCounter m_words{};
};

} // namespace gradstep
