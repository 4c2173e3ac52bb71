// Tensor statistics. Pass 1 counts classes of values (NaN, +-Inf, zeros, near 0 or +-1) and sums
// the finite ones; pass 2 needs the mean and range from pass 1 for the variance and histogram.
// Sums are taken in double even for float data; the variance is the two-pass sum of squared
// deviations, which keeps precision where sum(x^2) - n*mean^2 would cancel.
// SPDX-License-Identifier: MIT
#include "debug/tensor_stats.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>

namespace gradstep::debug {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Moments {
    double sum = 0.0;
    double sumAbs = 0.0;
    double sumSquares = 0.0;
};

template <class T> bool classify(T v, TensorStats& s)
{
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(v)) {
            ++s.nanCount;
            return false;
        }
        if (std::isinf(v)) {
            ++(v > 0 ? s.posInfCount : s.negInfCount);
            return false;
        }
    }
    return true;
}

template <class T> void firstPass(const T* p, std::int64_t n, TensorStats& s, Moments& m)
{
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (std::int64_t i = 0; i < n; ++i) {
        if (!classify(p[i], s))
            continue;
        const double v = static_cast<double>(p[i]);
        const double a = std::fabs(v);
        ++s.finiteCount;
        s.zeroCount += v == 0.0;
        s.nearZeroCount += a < kSaturationMargin;
        s.nearOneCount += a > 1.0 - kSaturationMargin;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        m.sum += v;
        m.sumAbs += a;
        m.sumSquares += v * v;
    }
    s.min = lo;
    s.max = hi;
}

// Halved values keep (v - min) finite for doubles near the top of the range.
template <class T> void secondPass(const T* p, std::int64_t n, TensorStats& s)
{
    const double lo = s.edges.front() * 0.5;
    const double width = s.edges.back() * 0.5 - lo;
    const double scale = width > 0.0 ? TensorStats::kBins / width : 0.0;
    double squaredDeviations = 0.0;
    for (std::int64_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(p[i]);
        if (!std::isfinite(v))
            continue;
        const double d = v - s.mean;
        squaredDeviations += d * d;
        const double position = (v * 0.5 - lo) * scale;
        int bin = position >= TensorStats::kBins ? TensorStats::kBins - 1 : static_cast<int>(position);
        bin = bin < 0 ? 0 : bin;
        ++s.bins[static_cast<std::size_t>(bin)];
    }
    s.std = std::sqrt(squaredDeviations / static_cast<double>(s.finiteCount));
}

void setEdges(TensorStats& s)
{
    double lo = s.min;
    double hi = s.max;
    if (lo == hi) {
        lo -= 0.5;
        hi += 0.5;
    }
    for (int i = 0; i <= TensorStats::kBins; ++i) {
        const double t = static_cast<double>(i) / TensorStats::kBins;
        s.edges[static_cast<std::size_t>(i)] = lo * (1.0 - t) + hi * t;
    }
    s.edges.back() = hi;
}

void setEmptyValues(TensorStats& s)
{
    s.min = s.max = s.mean = s.std = s.l2Norm = s.maxAbs = s.meanAbs = kNaN;
    for (int i = 0; i <= TensorStats::kBins; ++i)
        s.edges[static_cast<std::size_t>(i)] = static_cast<double>(i) / TensorStats::kBins;
}

template <class T> void fill(const T* p, std::int64_t n, TensorStats& s)
{
    Moments m;
    firstPass(p, n, s, m);
    if (s.finiteCount == 0) {
        setEmptyValues(s);
        return;
    }
    const double finite = static_cast<double>(s.finiteCount);
    s.mean = m.sum / finite;
    s.meanAbs = m.sumAbs / finite;
    s.l2Norm = std::sqrt(m.sumSquares);
    s.maxAbs = std::fmax(std::fabs(s.min), std::fabs(s.max));
    setEdges(s);
    secondPass(p, n, s);
}

std::string shortNumber(double v)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", v);
    return buffer;
}

template <class T> double meanAbsDiff(const T* a, const T* b, std::int64_t n, double& meanAbsA)
{
    double diff = 0.0;
    double absA = 0.0;
    for (std::int64_t i = 0; i < n; ++i) {
        const double x = static_cast<double>(a[i]);
        diff += std::fabs(static_cast<double>(b[i]) - x);
        absA += std::fabs(x);
    }
    meanAbsA = absA / static_cast<double>(n);
    return diff / static_cast<double>(n);
}

} // namespace

double TensorStats::zeroShare() const
{
    return count == 0 ? 0.0 : static_cast<double>(zeroCount) / static_cast<double>(count);
}

std::string TensorStats::summary() const
{
    std::string s = shape.toString() + " " + std::string(dtypeName(dtype));
    s += " min " + shortNumber(min) + " max " + shortNumber(max) + " mean " + shortNumber(mean);
    s += " nan " + std::to_string(nanCount) + " inf " + std::to_string(infCount());
    return s;
}

TensorStats computeStats(const Tensor& tensor)
{
    TensorStats s;
    if (!tensor.defined()) {
        setEmptyValues(s);
        return s;
    }
    s.shape = tensor.shape();
    s.dtype = tensor.dtype();
    s.count = tensor.numel();
    visitDType(s.dtype, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        fill(static_cast<const T*>(tensor.rawData()), s.count, s);
    });
    return s;
}

double relativeChange(const Tensor& before, const Tensor& after, double offset)
{
    if (!before.defined() || !after.defined() || !(before.shape() == after.shape())
        || before.numel() == 0)
        return kNaN;
    const Tensor b = after.dtype() == before.dtype() ? after : Tensor();
    double meanAbsBefore = 0.0;
    double meanDiff = 0.0;
    if (b.defined()) {
        visitDType(before.dtype(), [&](auto* tag) {
            using T = std::remove_pointer_t<decltype(tag)>;
            meanDiff = meanAbsDiff(static_cast<const T*>(before.rawData()),
                                   static_cast<const T*>(b.rawData()), before.numel(), meanAbsBefore);
        });
    } else {
        const std::vector<double> x = before.toDoubles();
        const std::vector<double> y = after.toDoubles();
        meanDiff = meanAbsDiff(x.data(), y.data(), before.numel(), meanAbsBefore);
    }
    return meanDiff / (meanAbsBefore + offset);
}

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
