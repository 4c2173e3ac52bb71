// Philox4x32-10. SPDX-License-Identifier: MIT
#include "random/philox.h"

namespace gradstep {

namespace {

// The round multipliers and the Weyl key increments of Philox4x32 (the paper's constants).
constexpr std::uint32_t kMultiplier0 = 0xD2511F53u;
constexpr std::uint32_t kMultiplier1 = 0xCD9E8D57u;
constexpr std::uint32_t kKeyIncrement0 = 0x9E3779B9u; // golden ratio
constexpr std::uint32_t kKeyIncrement1 = 0xBB67AE85u; // sqrt(3) - 1
constexpr int kRounds = 10;

PhiloxCounter round(const PhiloxCounter& x, const PhiloxKey& key)
{
    const std::uint64_t product0 = std::uint64_t{kMultiplier0} * x[0];
    const std::uint64_t product1 = std::uint64_t{kMultiplier1} * x[2];
    const auto high = [](std::uint64_t p) { return static_cast<std::uint32_t>(p >> 32); };
    const auto low = [](std::uint64_t p) { return static_cast<std::uint32_t>(p); };
    return {high(product1) ^ x[1] ^ key[0], low(product1), high(product0) ^ x[3] ^ key[1],
            low(product0)};
}

} // namespace

PhiloxCounter philox4x32_10(PhiloxCounter counter, PhiloxKey key)
{
    for (int r = 0; r < kRounds; ++r) {
        if (r > 0) {
            key[0] += kKeyIncrement0;
            key[1] += kKeyIncrement1;
        }
        counter = round(counter, key);
    }
    return counter;
}

PhiloxStream::PhiloxStream(std::uint64_t seed, std::uint64_t firstWord)
    : m_seed(seed), m_block(firstWord / 4), m_index(4)
{
    if (firstWord % 4 != 0) {
        loadBlock();
        m_index = static_cast<unsigned>(firstWord % 4);
    }
}

void PhiloxStream::loadBlock()
{
    // The block index fills the low 64 counter bits; a buffer never holds the 2^66 words after
    // which MindSpore would carry into the seed half, so no carry is kept here.
    const std::uint32_t seedLow = static_cast<std::uint32_t>(m_seed);
    const std::uint32_t seedHigh = static_cast<std::uint32_t>(m_seed >> 32);
    m_words = philox4x32_10({static_cast<std::uint32_t>(m_block),
                             static_cast<std::uint32_t>(m_block >> 32), seedLow, seedHigh},
                            {seedLow, seedHigh});
    ++m_block;
    m_index = 0;
}

std::uint32_t PhiloxStream::next()
{
    if (m_index == 4)
        loadBlock();
    return m_words[m_index++];
}

} // namespace gradstep
