// What the comparison's JSON writers share (compare_report.cpp, compare_wire.cpp,
// compare_curves.cpp). Private to gradstep_compare. SPDX-License-Identifier: MIT
#pragma once

#include "io/json.h"
#include "session/compare.h"

#include <optional>
#include <string>

namespace gradstep::session {

/// A number, or null when there is none or it is not finite (JSON has no NaN or infinity).
Json jsonNumber(std::optional<double> value);

/// null, or {"step", "kind", "name"} (compare_curves.cpp).
Json divergenceJson(const std::optional<Divergence>& divergence);

/// The per-step table of a comparison over several steps and the line naming the first
/// divergence (compare_curves.cpp).
std::string formatCurves(const Comparison& comparison);

} // namespace gradstep::session
