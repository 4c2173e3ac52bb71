// SplitMix64's finaliser. SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace gradstep {

/// Nearby inputs (a seed plus an epoch or a run number) give unrelated 64-bit outputs, so
/// generators seeded with them draw unrelated streams.
inline std::uint64_t splitMix64(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

} // namespace gradstep
