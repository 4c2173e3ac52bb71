// The gradients' spread across ranks. SPDX-License-Identifier: MIT
#include "session/rank_spread.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gradstep::session {

namespace {

/// float32 sums of N values in another order than float64's: well under 1e-6 relative.
constexpr double kTolerance = 1e-6;

double norm(const std::vector<double>& v)
{
    double squares = 0.0;
    for (double x : v)
        squares += x * x;
    return std::sqrt(squares);
}

/// ||a - b|| / ||b|| (0 when both are 0).
double relativeDistance(const std::vector<double>& a, const std::vector<double>& b)
{
    double squares = 0.0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
        squares += (a[i] - b[i]) * (a[i] - b[i]);
    const double scale = norm(b);
    return scale > 0.0 ? std::sqrt(squares) / scale : std::sqrt(squares);
}

const RankGradient* find(const std::vector<RankGradient>& list, const std::string& name)
{
    for (const RankGradient& g : list)
        if (g.name == name)
            return &g;
    return nullptr;
}

std::string number(double v, const char* format = "%.6g")
{
    char text[32];
    std::snprintf(text, sizeof text, format, v);
    return text;
}

} // namespace

std::vector<GradientSpread> gradientSpread(const std::vector<std::vector<RankGradient>>& perRank)
{
    std::vector<GradientSpread> out;
    if (perRank.empty())
        return out;
    for (const RankGradient& first : perRank.front()) {
        std::vector<const RankGradient*> ranks;
        for (const auto& list : perRank)
            if (const RankGradient* g = find(list, first.name); g && g->local.size() == first.local.size())
                ranks.push_back(g);
        if (ranks.size() != perRank.size())
            continue;
        GradientSpread s;
        s.name = first.name;
        s.shape = first.shape;
        std::vector<double> sum(first.local.size(), 0.0);
        bool reduced = true;
        for (const RankGradient* g : ranks) {
            s.localNorms.push_back(norm(g->local));
            for (std::size_t i = 0; i < sum.size(); ++i)
                sum[i] += g->local[i];
            reduced = reduced && g->reduced && g->reduced->size() == sum.size();
        }
        const auto [low, high] = std::minmax_element(s.localNorms.begin(), s.localNorms.end());
        s.spread = *high - *low;
        for (double n : s.localNorms)
            s.meanNorm += n / static_cast<double>(s.localNorms.size());
        std::vector<double> mean = sum;
        for (double& m : mean)
            m /= static_cast<double>(ranks.size());
        s.meanOfLocalNorm = norm(mean);
        if (reduced) {
            const std::vector<double>& r0 = *ranks.front()->reduced;
            s.reducedNorm = norm(r0);
            s.relativeToMean = relativeDistance(r0, mean);
            s.relativeToSum = relativeDistance(r0, sum);
            for (const RankGradient* g : ranks)
                s.ranksAgree = s.ranksAgree && *g->reduced == r0;
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::string reductionVerdict(const std::vector<GradientSpread>& spread)
{
    if (spread.empty())
        return "No gradients in this step yet (the step's gradient call has not returned).";
    double worstMean = 0.0, worstSum = 0.0;
    std::string worstName;
    std::size_t reduced = 0;
    bool agree = true;
    for (const GradientSpread& s : spread) {
        if (!s.relativeToMean)
            continue;
        ++reduced;
        if (*s.relativeToMean >= worstMean) {
            worstMean = *s.relativeToMean;
            worstName = s.name;
        }
        worstSum = std::max(worstSum, *s.relativeToSum);
        agree = agree && s.ranksAgree;
    }
    if (reduced == 0)
        return "The gradients are not all-reduced yet in this step (step on to the AllReduce nodes).";
    const std::string which = reduced == spread.size() ? "The all-reduced gradients"
                                                        : "The " + std::to_string(reduced) + " of "
                                                              + std::to_string(spread.size())
                                                              + " gradients all-reduced so far";
    const std::string ranks = agree ? "" : " (but the ranks did not all receive the same all-reduced gradients)";
    if (worstMean <= kTolerance)
        return which + " are the mean of the ranks' own gradients (largest relative difference "
               + number(worstMean, "%.3g") + " <= 1e-06: gradients_mean)" + ranks + ".";
    if (worstSum <= kTolerance)
        return which + " are the sum of the ranks' own gradients, not their mean (largest relative difference "
               + number(worstSum, "%.3g") + "): gradients_mean is off" + ranks + ".";
    return which + " are neither the mean nor the sum of the ranks' own gradients ('" + worstName
           + "' differs from the mean by " + number(worstMean, "%.3g") + " relative)" + ranks + ".";
}

std::string gradientSpreadText(const std::vector<GradientSpread>& spread)
{
    if (spread.empty())
        return reductionVerdict(spread) + "\n";
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> header{"parameter"};
    const std::size_t ranks = spread.empty() ? 0 : spread.front().localNorms.size();
    for (std::size_t r = 0; r < ranks; ++r)
        header.push_back("|g| rank " + std::to_string(r));
    for (const char* h : {"mean", "spread", "|mean of g|", "|all-reduced|", "vs mean"})
        header.emplace_back(h);
    rows.push_back(header);
    for (const GradientSpread& s : spread) {
        std::vector<std::string> row{s.name};
        for (double n : s.localNorms)
            row.push_back(number(n));
        row.push_back(number(s.meanNorm));
        row.push_back(number(s.spread));
        row.push_back(number(s.meanOfLocalNorm));
        row.push_back(s.reducedNorm ? number(*s.reducedNorm) : "-");
        row.push_back(s.relativeToMean ? number(*s.relativeToMean, "%.3g") : "-");
        rows.push_back(std::move(row));
    }
    std::vector<std::size_t> widths(header.size(), 0);
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], row[c].size());
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::string pad(widths[c] - row[c].size(), ' ');
            line += c == 0 ? row[c] + pad : "  " + pad + row[c];
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
    return out + reductionVerdict(spread) + "\n";
}

} // namespace gradstep::session
