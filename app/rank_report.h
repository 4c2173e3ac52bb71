// The per-rank part of a data-parallel run's report: each rank's gradient norm per step before
// the all-reduce, gathered on rank 0 and shown as one column per rank beside rank 0's table.
// SPDX-License-Identifier: MIT
#pragma once

#include "app/step_report.h"

#include <string>
#include <vector>

namespace gradstep::app {

/// Each step's gradient norm over all its parameters (else its differentiated inputs): the
/// rank's own gradients, as the step reported them before any all-reduce.
std::vector<double> stepGradientNorms(const std::vector<StepRecord>& steps);

/// `table` (formatStepTable's: a header line, then one line per step) with a column
/// "|grad| rank k" per rank appended; a rank with fewer steps leaves its cells "-".
std::string appendRankColumns(const std::string& table, const std::vector<std::vector<double>>& perRank);

/// The same numbers for --report's "rank_grad_norms": one array per rank (null: not finite).
Json rankNormsJson(const std::vector<std::vector<double>>& perRank);

} // namespace gradstep::app
