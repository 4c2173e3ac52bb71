// SPDX-License-Identifier: MIT
#include "views/chart_theme.h"

#include <QtCharts/QChart>

namespace gradstep::views {

bool isDarkPalette(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

void applyChartTheme(QChart* chart, const QPalette& palette)
{
    const bool dark = isDarkPalette(palette);
    const QChart::ChartTheme theme = dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (chart->theme() != theme)
        chart->setTheme(theme);
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setTitleBrush(palette.color(QPalette::Text));
    chart->legend()->setLabelColor(palette.color(QPalette::Text));
}

} // namespace gradstep::views
