// The per-rank spread of a data-parallel step's gradients: for each parameter, each rank's own
// gradient norm before the all-reduce, their mean and max-min spread, and the all-reduced
// gradient against the mean (gradients_mean) and the sum of the ranks' gradients. What the
// window's Ranks panel and `debug --ranks N --interactive`'s grads show. SPDX-License-Identifier: MIT
#pragma once

#include "session/rank_state.h"

#include <optional>
#include <string>
#include <vector>

namespace gradstep::session {

struct GradientSpread {
    std::string name;
    std::vector<std::int64_t> shape;
    std::vector<double> localNorms;      ///< by rank: the rank's own gradient's norm
    double meanNorm = 0.0;               ///< the mean of localNorms
    double spread = 0.0;                 ///< max - min of localNorms
    double meanOfLocalNorm = 0.0;        ///< the norm of the element-wise mean of the ranks' gradients
    /// Once the all-reduce ran (on every rank): rank 0's all-reduced gradient's norm, and its
    /// distance to the mean and to the sum of the ranks' gradients, relative to their norms.
    std::optional<double> reducedNorm;
    std::optional<double> relativeToMean;
    std::optional<double> relativeToSum;
    /// Every rank received the same all-reduced gradient (bit for bit).
    bool ranksAgree = true;
};

/// By parameter (rank 0's order); a parameter missing on a rank is left out.
std::vector<GradientSpread> gradientSpread(const std::vector<std::vector<RankGradient>>& perRank);

/// One sentence: the all-reduced gradients (those all-reduced so far in this step) are the mean of
/// the ranks' (within 1e-6 relative), their sum, neither (naming the worst parameter), or not
/// computed yet.
std::string reductionVerdict(const std::vector<GradientSpread>& spread);

/// A table, one line per parameter, then the verdict (the verdict alone without gradients).
std::string gradientSpreadText(const std::vector<GradientSpread>& spread);

} // namespace gradstep::session
