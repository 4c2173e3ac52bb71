// SPDX-License-Identifier: MIT
#include "migrate/initial_values.h"

#include "migrate/pitfalls.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gradstep::migrate {

namespace {

std::string threeDigits(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return text;
}

/// Differing when the spreads or centres disagree by more than sampling explains: three standard
/// errors of n values (a bias of 10 values wanders more than a kernel of 200).
bool differs(const Distribution& a, const Distribution& b, std::size_t count)
{
    const double spread = std::max({a.std, b.std, 1e-12});
    const double n = static_cast<double>(std::max<std::size_t>(count, 1));
    return std::abs(a.std - b.std) > std::max(0.1, 3 / std::sqrt(2 * n)) * spread
           || std::abs(a.mean - b.mean) > std::max(0.1, 3 / std::sqrt(n)) * spread + 1e-12;
}

} // namespace

std::vector<InitialRow> compareInitialValues(const Capture& torch, const Capture& ms, const std::vector<ParamPair>& pairs,
                                             const std::vector<ParamInfo>& torchParams,
                                             const std::map<std::string, std::string>& toMs)
{
    std::vector<InitialRow> rows;
    for (const ParamPair& p : pairs) {
        const auto tv = torch.tensor("init/" + p.torch), mv = ms.tensor("init/" + p.mindspore);
        const auto info = std::find_if(torchParams.begin(), torchParams.end(),
                                       [&](const ParamInfo& i) { return i.name == p.torch; });
        if (!tv || !mv || info == torchParams.end())
            continue;
        InitialRow row{p.torch, p.mindspore, distributionOf(tv->values), distributionOf(mv->values),
                       torchInitialiser(info->moduleClass, info->attr), "", false};
        const auto mapped = toMs.find(info->module);
        const std::string msModule = mapped != toMs.end() ? mapped->second : info->module;
        row.msInitialiser = msInitialiser(ms.module(msModule), p.mindspore.substr(p.mindspore.rfind('.') + 1));
        row.differs = differs(row.torchStats, row.msStats, tv->values.size());
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string differingInitialisers(const std::vector<InitialRow>& rows)
{
    std::string out;
    std::size_t count = 0;
    for (const InitialRow& row : rows)
        if (row.differs && ++count <= 3)
            out += (out.empty() ? "" : "; ") + row.torch + " " + row.torchInitialiser + " (std "
                   + threeDigits(row.torchStats.std) + ") vs " + row.mindspore + " " + row.msInitialiser + " (std "
                   + threeDigits(row.msStats.std) + ")";
    if (count > 3)
        out += "; " + std::to_string(count - 3) + " more";
    return out;
}

} // namespace gradstep::migrate
