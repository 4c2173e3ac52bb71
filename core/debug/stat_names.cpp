// Tensor statistics by name, for breakpoint and watchpoint predicates. SPDX-License-Identifier: MIT
#include "debug/tensor_stats.h"

#include <array>
#include <utility>

namespace gradstep::debug {

double statValue(const TensorStats& s, Stat stat)
{
    switch (stat) {
    case Stat::Min: return s.min;
    case Stat::Max: return s.max;
    case Stat::Mean: return s.mean;
    case Stat::Std: return s.std;
    case Stat::L2: return s.l2Norm;
    case Stat::MaxAbs: return s.maxAbs;
    case Stat::MeanAbs: return s.meanAbs;
    case Stat::NanCount: return static_cast<double>(s.nanCount);
    case Stat::InfCount: return static_cast<double>(s.infCount());
    case Stat::NonFiniteCount: return static_cast<double>(s.nonFiniteCount());
    case Stat::ZeroShare: return s.zeroShare();
    case Stat::Count: break;
    }
    return static_cast<double>(s.count);
}

namespace {
constexpr std::array<std::pair<Stat, std::string_view>, 12> kStatNames{{
    {Stat::Min, "min"}, {Stat::Max, "max"}, {Stat::Mean, "mean"}, {Stat::Std, "std"},
    {Stat::L2, "l2"}, {Stat::MaxAbs, "max_abs"}, {Stat::MeanAbs, "mean_abs"},
    {Stat::NanCount, "nan_count"}, {Stat::InfCount, "inf_count"},
    {Stat::NonFiniteCount, "nonfinite_count"}, {Stat::ZeroShare, "zero_share"},
    {Stat::Count, "count"},
}};
} // namespace

std::string_view statName(Stat stat)
{
    for (const auto& [s, name] : kStatNames)
        if (s == stat)
            return name;
    return "count";
}

std::optional<Stat> parseStat(std::string_view name)
{
    for (const auto& [s, n] : kStatNames)
        if (n == name)
            return s;
    if (name == "norm")
        return Stat::L2;
    return std::nullopt;
}

std::string statNames()
{
    std::string s;
    for (const auto& entry : kStatNames)
        s += (s.empty() ? "" : ", ") + std::string(entry.second);
    return s;
}

} // namespace gradstep::debug
