// Per-rank gradient norms. SPDX-License-Identifier: MIT
#include "app/rank_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gradstep::app {

std::vector<double> stepGradientNorms(const std::vector<StepRecord>& steps)
{
    std::vector<double> norms;
    for (const StepRecord& s : steps) {
        double squares = 0.0;
        for (const ParamStep& p : s.params)
            squares += p.gradNorm * p.gradNorm;
        if (s.params.empty())
            for (double n : s.inputGradNorms)
                squares += n * n;
        norms.push_back(std::sqrt(squares));
    }
    return norms;
}

std::string appendRankColumns(const std::string& table, const std::vector<std::vector<double>>& perRank)
{
    std::vector<std::string> lines;
    for (std::size_t start = 0; start < table.size();) {
        const std::size_t end = std::min(table.find('\n', start), table.size());
        lines.push_back(table.substr(start, end - start));
        start = end + 1;
    }
    if (lines.empty())
        return table;
    std::size_t width = 0;
    for (const std::string& line : lines)
        width = std::max(width, line.size());
    std::vector<std::vector<std::string>> columns;
    for (std::size_t r = 0; r < perRank.size(); ++r) {
        std::vector<std::string> column{"|grad| rank " + std::to_string(r)};
        for (std::size_t step = 0; step + 1 < lines.size(); ++step) {
            char text[32] = "-";
            if (step < perRank[r].size())
                std::snprintf(text, sizeof text, "%.6g", perRank[r][step]);
            column.emplace_back(text);
        }
        columns.push_back(std::move(column));
    }
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string line = lines[i] + std::string(width - lines[i].size(), ' ');
        for (const auto& column : columns) {
            std::size_t cellWidth = 0;
            for (const std::string& cell : column)
                cellWidth = std::max(cellWidth, cell.size());
            line += "  " + std::string(cellWidth - column[i].size(), ' ') + column[i];
        }
        out += line + '\n';
    }
    return out;
}

Json rankNormsJson(const std::vector<std::vector<double>>& perRank)
{
    Json::Array ranks;
    for (const auto& norms : perRank) {
        Json::Array column;
        for (double n : norms) {
            if (std::isfinite(n))
                column.emplace_back(n);
            else
                column.emplace_back(nullptr);
        }
        ranks.emplace_back(std::move(column));
    }
    return Json(std::move(ranks));
}

} // namespace gradstep::app
