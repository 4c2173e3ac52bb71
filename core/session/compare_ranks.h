// compare --what ranks: the two sides (N data-parallel ranks, one rank on the full batch) and the
// verdict. Internal to gradstep_compare. SPDX-License-Identifier: MIT
#pragma once

#include "session/compare.h"

namespace gradstep::session {

/// A: `options.ranks` ranks, rank 0's figures; B: one rank whose batches hold N times the rows.
/// Both take the gradients their optimizer received (after the all-reduce).
std::pair<CompareSide, CompareSide> ranksSides(const std::filesystem::path& script, const CompareOptions& options);

/// The verdict: equal within float32 tolerance (averaged), N times as large (summed: gradients_mean
/// off), or different for another reason.
std::string explainRanks(const Comparison& c);

/// The ranks a side's label names ("2 ranks (rank 0)"); 0 when it names none.
int ranksOfLabel(const std::string& label);

} // namespace gradstep::session
