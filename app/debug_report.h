// What `gradstep debug` prints at a stop: where (node, source line with a caret) and why
// (condition, values), as text or as one JSON object. SPDX-License-Identifier: MIT
#pragma once

#include "python/host/user_files.h"
#include "session/session_state.h"

#include <string>

namespace gradstep::app {

/// "breakpoint", "watchpoint", "nan" or "end" (a finished script or --steps reached).
std::string debugReason(const debug::SessionState& state);
std::string debugReportText(const debug::SessionState& state, const python::UserFiles& files);
/// One JSON object: reason, condition, message, step, node {op, label, scope, name, phase, seq},
/// location {file, line, col, source}, inputs and outputs (stats), watch hits, nan_root_cause,
/// overflow (the overflow watchpoint's finding at the node: kind, dtype, output, count, index,
/// half_value, float32_value, float32_largest_abs, message), loss, steps_finished. Non-finite numbers are written as the strings "nan", "inf", "-inf".
std::string debugReportJson(const debug::SessionState& state, const python::UserFiles& files);

} // namespace gradstep::app
