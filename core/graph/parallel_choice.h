// Whether running a group of independent nodes at once pays off on this machine, now.
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace gradstep {

/// Note [Measured parallelism]: two threads only help when the second core is really there. On a
/// loaded or oversubscribed machine (a VM whose virtual cores share physical ones) a group run
/// at once can take longer than one after the other. So each parallel group keeps a smoothed time
/// per way of running it, tries both ways first, then runs the faster way and every kProbeEvery-th
/// run tries the other again, so a change in the machine's load is noticed. Either way gives the
/// same bits; only the time differs.
class ParallelChoice {
public:
    static constexpr std::uint32_t kWarmup = 8;      ///< runs alternating between the two ways
    static constexpr std::uint32_t kProbeEvery = 32; ///< then one run in this many the other way

    /// How to run the group this time.
    bool nextParallel() const;
    /// The time the run took, the way nextParallel() said.
    void record(bool parallel, double seconds);

    double estimate(bool parallel) const { return parallel ? m_parallel : m_serial; }

private:
    std::uint32_t m_runs = 0;
    double m_parallel = 0;
    double m_serial = 0;
};

} // namespace gradstep
