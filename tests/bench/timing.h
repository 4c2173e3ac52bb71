// Timing helpers for the benchmarks: warm up, then take samples of `inner` back-to-back calls
// for at least a minimum time, and report the median and minimum per call.
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace gradstep::bench {

struct Timing {
    double medianUs = 0;
    double minUs = 0;
};

template <class F> Timing measure(F&& f, int inner, double minSeconds = 1.0, int minSamples = 15)
{
    using Clock = std::chrono::steady_clock;
    for (int i = 0; i < inner; ++i)
        f();
    std::vector<double> samples;
    const auto start = Clock::now();
    while (static_cast<int>(samples.size()) < minSamples
           || std::chrono::duration<double>(Clock::now() - start).count() < minSeconds) {
        const auto t0 = Clock::now();
        for (int i = 0; i < inner; ++i)
            f();
        const auto t1 = Clock::now();
        samples.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / inner);
    }
    std::sort(samples.begin(), samples.end());
    return {samples[samples.size() / 2], samples.front()};
}

inline void report(const char* name, const Timing& t, const char* unit = "us")
{
    std::printf("%-52s median %10.3f %s   min %10.3f %s\n", name, t.medianUs, unit, t.minUs, unit);
}

} // namespace gradstep::bench
