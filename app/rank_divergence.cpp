// ranks-diverge. Its collectives go through core/dist directly, not through the ops, so they do
// not appear in the script's graph as if the script had run them. SPDX-License-Identifier: MIT
#include "app/rank_divergence.h"

#include "dist/communicator.h"
#include "nn/parameter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace gradstep::app {

std::optional<double> parseRanksDivergeWatch(const std::string& text, std::string& error)
{
    constexpr std::string_view kName = "ranks-diverge";
    if (text == kName)
        return 1e-6;
    if (text.rfind(std::string(kName) + ":", 0) == 0) {
        const std::string number = text.substr(kName.size() + 1);
        char* end = nullptr;
        const double tolerance = std::strtod(number.c_str(), &end);
        if (!number.empty() && *end == '\0' && tolerance >= 0.0 && std::isfinite(tolerance))
            return tolerance;
        error = "--watch ranks-diverge:TOL needs a tolerance >= 0, got '" + number + "'";
        return std::nullopt;
    }
    error = "--watch under gradstep run takes ranks-diverge[:TOL] or shard-overlap (the other watchpoints are "
            "gradstep debug's), got '" + text + "'";
    return std::nullopt;
}

std::optional<std::string> RankDivergenceWatch::check(const UpdateEvent& event, std::int64_t step)
{
    if (!dist::usesMpi())
        return std::nullopt;
    const std::string world = "hccl_world_group";
    const int ranks = dist::size(world), me = dist::rank(world);
    for (const Parameter& parameter : event.parameters) {
        const std::vector<double> mine = parameter.toDoubles();
        std::vector<double> root = mine;
        dist::broadcast(root.data(), static_cast<std::int64_t>(root.size()), dist::ElementType::Float64, 0, world,
                        "ranks-diverge");
        double worst = 0.0;
        for (std::size_t i = 0; i < mine.size(); ++i)
            worst = std::max(worst, std::abs(mine[i] - root[i]) / std::max(1.0, std::abs(root[i])));
        // Each rank's worst difference in its own slot: the sum gives every rank all of them.
        std::vector<double> slots(static_cast<std::size_t>(ranks), 0.0), all(slots.size());
        slots[static_cast<std::size_t>(me)] = std::isnan(worst) ? INFINITY : worst;
        dist::allReduce(slots.data(), all.data(), ranks, dist::ElementType::Float64, dist::ReduceOp::Sum, world,
                        "ranks-diverge");
        const auto largest = std::max_element(all.begin(), all.end());
        if (*largest <= m_tolerance)
            continue;
        char text[256];
        std::snprintf(text, sizeof text,
                      "ranks-diverge: after the update of step %lld, parameter '%s' differs between ranks: rank "
                      "%d is %.3g (relative) from rank 0, more than the tolerance %g\n",
                      static_cast<long long>(step), parameter.name().c_str(),
                      static_cast<int>(largest - all.begin()), *largest, m_tolerance);
        return std::string(text);
    }
    return std::nullopt;
}

} // namespace gradstep::app
