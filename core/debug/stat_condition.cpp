// Stat conditions. SPDX-License-Identifier: MIT
#include "debug/stat_condition.h"

#include "io/number_format.h"

#include <array>
#include <charconv>
#include <cmath>

namespace gradstep::debug {

namespace {

constexpr std::array<std::pair<std::string_view, Compare>, 6> kSymbols{{
    {"<=", Compare::LessEqual}, {">=", Compare::GreaterEqual}, {"==", Compare::Equal},
    {"!=", Compare::NotEqual}, {"<", Compare::Less}, {">", Compare::Greater},
}};

std::string_view trim(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

} // namespace

std::string_view compareSymbol(Compare compare)
{
    for (const auto& [symbol, c] : kSymbols)
        if (c == compare)
            return symbol;
    return ">";
}

bool compareHolds(double v, Compare compare, double threshold)
{
    if (std::isnan(v))
        return false;
    switch (compare) {
    case Compare::Less: return v < threshold;
    case Compare::LessEqual: return v <= threshold;
    case Compare::Greater: return v > threshold;
    case Compare::GreaterEqual: return v >= threshold;
    case Compare::Equal: return v == threshold;
    case Compare::NotEqual: break;
    }
    return v != threshold;
}

std::string StatCondition::toString() const
{
    return std::string(statName(stat)) + std::string(compareSymbol(compare)) + formatNumber(threshold);
}

std::optional<double> parseNumber(std::string_view s)
{
    s = trim(s);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    double v = 0.0;
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || error != std::errc() || end != s.data() + s.size())
        return std::nullopt;
    return v;
}

StatCondition parseStatCondition(std::string_view text)
{
    const std::string quoted = "'" + std::string(text) + "'";
    const std::size_t at = text.find_first_of("<>=!");
    if (at == std::string_view::npos)
        throw ValueError("tensor condition " + quoted
                         + " has no comparison, expected STAT OP NUMBER such as max>1e3");
    StatCondition c;
    const std::string_view name = trim(text.substr(0, at));
    const std::optional<Stat> stat = parseStat(name);
    if (!stat)
        throw ValueError("tensor condition " + quoted + ": unknown statistic '" + std::string(name)
                         + "', expected one of " + statNames());
    c.stat = *stat;
    std::string_view rest = text.substr(at);
    bool found = false;
    for (const auto& [symbol, compare] : kSymbols)
        if (!found && rest.substr(0, symbol.size()) == symbol) {
            c.compare = compare;
            rest.remove_prefix(symbol.size());
            found = true;
        }
    if (!found)
        throw ValueError("tensor condition " + quoted + ": bad comparison, expected one of "
                         "<, <=, >, >=, ==, !=");
    const std::optional<double> threshold = parseNumber(rest);
    if (!threshold)
        throw ValueError("tensor condition " + quoted + ": threshold '" + std::string(trim(rest))
                         + "' is not a number");
    c.threshold = *threshold;
    return c;
}

} // namespace gradstep::debug
