// A comparison of one tensor statistic with a threshold ("max>1e3", "nan_count>0"): the tensor
// predicate of breakpoints and the "where did this first exceed ..." search.
// SPDX-License-Identifier: MIT
#pragma once

#include "debug/tensor_stats.h"

#include <optional>
#include <string>
#include <string_view>

namespace gradstep::debug {

enum class Compare : std::uint8_t { Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual };

std::string_view compareSymbol(Compare compare);
/// False when v is NaN (a statistic of no finite values satisfies nothing).
bool compareHolds(double v, Compare compare, double threshold);

struct StatCondition {
    Stat stat = Stat::MaxAbs;
    Compare compare = Compare::Greater;
    double threshold = 0.0;

    bool holds(const TensorStats& stats) const { return compareHolds(statValue(stats, stat), compare, threshold); }
    /// "max>1000".
    std::string toString() const;
};

/// A number as the command line writes it ("1e3", "-0.5", "inf"); nullopt unless all of s is one.
std::optional<double> parseNumber(std::string_view s);
/// "STAT OP NUMBER" with OP one of < <= > >= == !=, spaces allowed around each part; ValueError
/// naming the bad part and what was expected.
StatCondition parseStatCondition(std::string_view text);

} // namespace gradstep::debug
