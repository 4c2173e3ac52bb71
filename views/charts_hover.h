// What hovering a step of the Charts panel shows: every drawn run's values at that step, for
// every kind of series the panel draws (loss, learning rate, each ticked parameter's gradient
// norm, with its weight norm), and the difference when two runs are drawn as one.
// SPDX-License-Identifier: MIT
#pragma once

#include "views/charts_view.h"

#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

namespace gradstep::views {

/// The text for `step`: "step N", then per run a line "LABEL: loss L, lr R" and per parameter
/// of `parameters` a line "  NAME: gradient norm G, weight norm W"; with `difference` (two runs)
/// a last line "FIRST - SECOND: loss D, NAME gradient norm D, ...". A value a run does not have
/// at that step reads "-"; a run without the step says so.
QString chartHoverText(const std::vector<ChartRun>& runs, const QStringList& parameters, std::int64_t step,
                       bool difference);

} // namespace gradstep::views
