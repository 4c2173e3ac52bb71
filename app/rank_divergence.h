// The ranks-diverge watchpoint of `gradstep run --ranks N --watch ranks-diverge[:TOL]`: after
// every optimizer update each parameter is compared with rank 0's, and the first parameter that
// differs on some rank by more than TOL * max(1, |rank 0's value|) stops every rank. In data
// parallel every rank applies the same all-reduced gradients, so the weights should stay equal:
// a rank that drifts was seeded, sharded or reduced differently. SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/observer.h"

#include <cstdint>
#include <optional>
#include <string>

namespace gradstep::app {

/// "ranks-diverge" or "ranks-diverge:TOL"; nullopt (with `error` set) for anything else.
std::optional<double> parseRanksDivergeWatch(const std::string& text, std::string& error);

class RankDivergenceWatch {
public:
    explicit RankDivergenceWatch(double tolerance) : m_tolerance(tolerance) {}
    /// Compares the updated parameters across the ranks (every rank must call it for the same
    /// updates: it runs collectives); returns the finding once a parameter diverges.
    std::optional<std::string> check(const UpdateEvent& event, std::int64_t step);

private:
    double m_tolerance;
};

} // namespace gradstep::app
