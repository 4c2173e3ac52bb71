// Qt Charts follow the widget palette: the dark chart theme on a dark palette, the light one
// otherwise, with the palette's window colour behind the plot. SPDX-License-Identifier: MIT
#pragma once

#include <QPalette>

class QChart;

namespace gradstep::views {

bool isDarkPalette(const QPalette& palette);
void applyChartTheme(QChart* chart, const QPalette& palette);

} // namespace gradstep::views
