// See Note [Measured parallelism]. SPDX-License-Identifier: MIT
#include "graph/parallel_choice.h"

#include <algorithm>

namespace gradstep {

bool ParallelChoice::nextParallel() const
{
    if (m_runs < kWarmup)
        return m_runs % 2 == 0;
    const bool faster = m_parallel <= m_serial;
    return m_runs % kProbeEvery == 0 ? !faster : faster;
}

void ParallelChoice::record(bool parallel, double seconds)
{
    double& estimate = parallel ? m_parallel : m_serial;
    if (estimate == 0) {
        estimate = seconds;
    } else {
        // A smoothed time; one sample far above it (a preempted thread) moves it at most 4x of a
        // normal step, so a single hiccup cannot flip the choice for long.
        const double sample = std::min(seconds, 4 * estimate);
        estimate += (sample - estimate) / 8;
    }
    ++m_runs;
}

} // namespace gradstep
