// Summary statistics of one tensor, as the debugger shows them for every recorded output and keeps
// for earlier steps once full snapshots are gone. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gradstep::debug {

/// Outputs within this distance of 0 or of +-1 count as saturated (sigmoid, tanh) or near zero.
inline constexpr double kSaturationMargin = 0.01;

/// All value statistics come from the finite elements only; NaN and +-Inf are counted apart.
/// With no finite element, min/max/mean/std/l2Norm/maxAbs/meanAbs are NaN and the histogram is
/// all zeros over the edges [0, 1].
struct TensorStats {
    static constexpr int kBins = 32;

    Shape shape;
    DType dtype = DType::Float32;
    std::int64_t count = 0;          ///< every element
    std::int64_t finiteCount = 0;
    std::int64_t nanCount = 0;
    std::int64_t posInfCount = 0;
    std::int64_t negInfCount = 0;
    std::int64_t zeroCount = 0;
    std::int64_t nearZeroCount = 0;  ///< finite with |x| < kSaturationMargin (zeros included)
    std::int64_t nearOneCount = 0;   ///< finite with |x| > 1 - kSaturationMargin
    double min = 0.0;
    double max = 0.0;
    double mean = 0.0;
    double std = 0.0;                ///< population standard deviation (NumPy's default)
    double l2Norm = 0.0;
    double maxAbs = 0.0;
    double meanAbs = 0.0;
    /// bins[i] counts finite values in [edges[i], edges[i+1]); the last bin also holds edges[32].
    /// When min == max the edges span [min - 0.5, min + 0.5], as numpy.histogram does.
    std::array<std::int64_t, kBins> bins{};
    std::array<double, kBins + 1> edges{};
    /// False when computed without the histogram (computeStats(t, false)): bins are zeros until
    /// fillHistogram; the edges are always set.
    bool hasHistogram = true;

    std::int64_t infCount() const { return posInfCount + negInfCount; }
    std::int64_t nonFiniteCount() const { return nanCount + infCount(); }
    bool allFinite() const { return nonFiniteCount() == 0; }
    /// zeroCount / count; 0 for an empty tensor.
    double zeroShare() const;
    /// "[2, 3] Float32 min -1 max 2 mean 0.5 nan 0 inf 0".
    std::string summary() const;
};

/// One statistic by name, for breakpoint and watchpoint predicates.
enum class Stat : std::uint8_t {
    Min, Max, Mean, Std, L2, MaxAbs, MeanAbs, NanCount, InfCount, NonFiniteCount, ZeroShare, Count
};

double statValue(const TensorStats& stats, Stat stat);
/// "min", "max", "mean", "std", "l2", "max_abs", "mean_abs", "nan_count", "inf_count",
/// "nonfinite_count", "zero_share", "count".
std::string_view statName(Stat stat);
std::optional<Stat> parseStat(std::string_view name);
/// The accepted names, comma separated, for error messages.
std::string statNames();

/// One pass for counts, range and moments, a second for the histogram unless `histogram` is
/// false; allocates nothing. Ints and bools are read as numbers; an undefined tensor gives count 0.
TensorStats computeStats(const Tensor& tensor, bool histogram = true);
/// Fills the bins of stats computed without them, from the same tensor's values (a snapshot).
void fillHistogram(TensorStats& stats, const Tensor& tensor);

/// MindInsight's weight change ratio: mean(|after - before|) / (mean(|before|) + offset). NaN when
/// the shapes differ or the tensors are empty.
double relativeChange(const Tensor& before, const Tensor& after, double offset = 1e-9);

} // namespace gradstep::debug
