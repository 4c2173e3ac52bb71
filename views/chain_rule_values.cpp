// SPDX-License-Identifier: MIT
#include "views/chain_rule_values.h"

#include "views/gradients_table.h"

#include <QStringList>
#include <algorithm>

namespace gradstep::views {

namespace {
constexpr std::size_t kValues = 4;
constexpr std::int64_t kScan = 100000; ///< elements searched for non-zero incoming gradients
} // namespace

std::vector<double> valuesAt(const Tensor& t, const std::vector<std::int64_t>& positions)
{
    std::vector<double> values;
    if (!t.defined())
        return values;
    for (std::int64_t p : positions)
        if (p < t.numel())
            values.push_back(t.at(p));
    return values;
}

std::vector<double> firstValues(const Tensor& t)
{
    std::vector<double> values;
    if (!t.defined())
        return values;
    for (std::int64_t i = 0; i < t.numel() && values.size() < kValues; ++i)
        values.push_back(t.at(i));
    return values;
}

/// The first few positions where `incoming` is non-zero (the first ones when none is).
std::vector<std::int64_t> positionsOf(const Tensor& incoming)
{
    std::vector<std::int64_t> positions;
    if (!incoming.defined())
        return positions;
    const std::int64_t scan = std::min(incoming.numel(), kScan);
    for (std::int64_t i = 0; i < scan && positions.size() < kValues; ++i)
        if (incoming.at(i) != 0.0)
            positions.push_back(i);
    if (positions.empty())
        for (std::int64_t i = 0; i < std::min<std::int64_t>(incoming.numel(), kValues); ++i)
            positions.push_back(i);
    return positions;
}

QString valuesText(const std::vector<double>& values)
{
    QStringList parts;
    for (double v : values)
        parts << formatNumber(v);
    return parts.isEmpty() ? QStringLiteral("(no snapshot)") : parts.join(QStringLiteral(", "));
}

} // namespace gradstep::views
