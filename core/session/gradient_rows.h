// What the Gradients table shows at a pause, built from the Session's state alone: one row per
// trainable parameter (its gradient's statistics and its weight's norm), whose step they are,
// and each parameter's gradient norm per step. Computed off the GUI thread's hot path (the
// statistics are in the state already) and tested headless. SPDX-License-Identifier: MIT
#pragma once

#include "session/session_state.h"

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace gradstep::debug {

struct GradientRow {
    std::string name;
    bool defined = true; ///< false: the loss does not depend on the parameter
    TensorStats gradient;
    double weightNorm = std::numeric_limits<double>::quiet_NaN();
};

struct GradientRows {
    std::vector<GradientRow> rows;
    /// Until the current step's gradients exist the rows are the last finished step's: its
    /// number; 0 when they are the current step's.
    std::int64_t fromStep = 0;
    /// Gradient norm per step, oldest first (NaN: no gradient that step), the current step's
    /// last once its gradient call returned.
    std::map<std::string, std::vector<double>> normHistory;
};

GradientRows gradientRows(const SessionState& state);

} // namespace gradstep::debug
