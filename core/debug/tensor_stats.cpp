// Tensor statistics. One pass gathers counts, range and moments; the histogram, which needs the
// range, is a second pass done only when asked for (the recorder leaves it to fillHistogram, run
// when a node is shown). Float data is summed in blocks of kBlock elements with per-lane float
// accumulators the compiler vectorises, each block then added into doubles; a block holding NaN
// or Inf is redone element by element. The variance comes from sums of (x - K) with K the first
// finite element, which keeps the precision of a two-pass variance unless the values spread far
// from K compared to their spread; a non-finite result (doubles near the top of the range) falls
// back to the exact second pass. SPDX-License-Identifier: MIT
#include "debug/tensor_stats.h"

#include "tensor/dtype_storage.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>

namespace gradstep::debug {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::int64_t kLanes = 8;
constexpr std::int64_t kBlock = 256;

struct Moments {
    double sumAbs = 0.0;
    double shifted = 0.0;        ///< sum of (x - K)
    double shiftedSquares = 0.0; ///< sum of (x - K)^2
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
};

/// Thresholds in T that decide exactly as the double comparisons |x| < margin and
/// |x| > 1 - margin would.
template <class T> struct Margins {
    T zeroAtMost;
    T oneAtLeast;
    Margins()
    {
        zeroAtMost = static_cast<T>(kSaturationMargin);
        if (static_cast<double>(zeroAtMost) >= kSaturationMargin)
            zeroAtMost = std::nextafter(zeroAtMost, T(0));
        oneAtLeast = static_cast<T>(1.0 - kSaturationMargin);
        if (static_cast<double>(oneAtLeast) <= 1.0 - kSaturationMargin)
            oneAtLeast = std::nextafter(oneAtLeast, std::numeric_limits<T>::infinity());
    }
};

/// Element by element, any data: ints, bools, and float blocks holding NaN or Inf.
template <class T> void slowPass(const T* p, std::int64_t n, double k, TensorStats& s, Moments& m)
{
    for (std::int64_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(p[i]);
        if (std::isnan(v)) {
            ++s.nanCount;
            continue;
        }
        if (std::isinf(v)) {
            ++(v > 0 ? s.posInfCount : s.negInfCount);
            continue;
        }
        const double a = std::fabs(v);
        ++s.finiteCount;
        s.zeroCount += v == 0.0;
        s.nearZeroCount += a < kSaturationMargin;
        s.nearOneCount += a > 1.0 - kSaturationMargin;
        m.lo = v < m.lo ? v : m.lo;
        m.hi = v > m.hi ? v : m.hi;
        m.sumAbs += a;
        m.shifted += v - k;
        m.shiftedSquares += (v - k) * (v - k);
    }
}

/// One block of finite-looking float data with lane accumulators; false (nothing added) when the
/// block holds NaN or Inf. Sums and sums of squares of x are not accumulated here: they follow
/// from the shifted sums (small numbers when the values cluster, so float lanes lose little).
template <class T>
[[gnu::always_inline]] inline bool fastBlockBody(const T* p, std::int64_t n, T k, const Margins<T>& margins,
                                                 TensorStats& s, Moments& m)
{
    T lo[kLanes], hi[kLanes], sumAbs[kLanes], d1[kLanes], d2[kLanes];
    std::int32_t bad[kLanes], zero[kLanes], nearZero[kLanes], nearOne[kLanes];
    for (std::int64_t l = 0; l < kLanes; ++l) {
        lo[l] = std::numeric_limits<T>::infinity();
        hi[l] = -std::numeric_limits<T>::infinity();
        sumAbs[l] = d1[l] = d2[l] = T(0);
        bad[l] = zero[l] = nearZero[l] = nearOne[l] = 0;
    }
    const T big = std::numeric_limits<T>::max();
    for (std::int64_t i = 0; i < n; i += kLanes)
        for (std::int64_t l = 0; l < kLanes; ++l) {
            const T v = p[i + l];
            const T a = std::fabs(v);
            const T d = v - k;
            bad[l] += !(a <= big);
            lo[l] = v < lo[l] ? v : lo[l];
            hi[l] = v > hi[l] ? v : hi[l];
            sumAbs[l] += a;
            d1[l] += d;
            d2[l] += d * d;
            zero[l] += v == T(0);
            nearZero[l] += a <= margins.zeroAtMost;
            nearOne[l] += a >= margins.oneAtLeast;
        }
    std::int32_t anyBad = 0;
    for (std::int64_t l = 0; l < kLanes; ++l)
        anyBad += bad[l];
    if (anyBad)
        return false;
    for (std::int64_t l = 0; l < kLanes; ++l) {
        m.lo = std::min(m.lo, static_cast<double>(lo[l]));
        m.hi = std::max(m.hi, static_cast<double>(hi[l]));
        m.sumAbs += sumAbs[l];
        m.shifted += d1[l];
        m.shiftedSquares += d2[l];
        s.zeroCount += zero[l];
        s.nearZeroCount += nearZero[l];
        s.nearOneCount += nearOne[l];
    }
    s.finiteCount += n;
    return true;
}

// The build targets baseline x86-64; where the CPU has AVX2 the block loop runs on twice as wide
// vectors (the loader picks the clone once).
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define GRADSTEP_STATS_CLONES [[gnu::target_clones("avx2", "default")]]
#else
#define GRADSTEP_STATS_CLONES
#endif

GRADSTEP_STATS_CLONES bool fastBlock(const float* p, std::int64_t n, float k, const Margins<float>& margins,
                                     TensorStats& s, Moments& m)
{
    return fastBlockBody(p, n, k, margins, s, m);
}

GRADSTEP_STATS_CLONES bool fastBlock(const double* p, std::int64_t n, double k, const Margins<double>& margins,
                                     TensorStats& s, Moments& m)
{
    return fastBlockBody(p, n, k, margins, s, m);
}

template <class T> double firstFinite(const T* p, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i)
        if (std::isfinite(static_cast<double>(p[i])))
            return static_cast<double>(p[i]);
    return 0.0;
}

template <class T> void firstPass(const T* p, std::int64_t n, TensorStats& s, Moments& m, double& k)
{
    k = firstFinite(p, n);
    std::int64_t i = 0;
    if constexpr (std::is_floating_point_v<T>) {
        const Margins<T> margins;
        const T kt = static_cast<T>(k);
        k = static_cast<double>(kt);
        for (; i + kBlock <= n; i += kBlock)
            if (!fastBlock(p + i, kBlock, kt, margins, s, m))
                slowPass(p + i, kBlock, k, s, m);
    }
    slowPass(p + i, n - i, k, s, m);
    s.min = m.lo;
    s.max = m.hi;
}

// Halved values keep (v - min) finite for doubles near the top of the range.
template <class T> void histogramPass(const T* p, std::int64_t n, TensorStats& s)
{
    s.bins.fill(0);
    const double lo = s.edges.front() * 0.5;
    const double width = s.edges.back() * 0.5 - lo;
    const double scale = width > 0.0 ? TensorStats::kBins / width : 0.0;
    for (std::int64_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(p[i]);
        if (!std::isfinite(v))
            continue;
        const double position = (v * 0.5 - lo) * scale;
        int bin = position >= TensorStats::kBins ? TensorStats::kBins - 1 : static_cast<int>(position);
        bin = bin < 0 ? 0 : bin;
        ++s.bins[static_cast<std::size_t>(bin)];
    }
    s.hasHistogram = true;
}

/// Plain sums, then the two-pass variance: for values whose shifted sums overflow.
template <class T> void exactMoments(const T* p, std::int64_t n, TensorStats& s)
{
    double sum = 0.0;
    double squares = 0.0;
    for (std::int64_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(p[i]);
        if (std::isfinite(v)) {
            sum += v;
            squares += v * v;
        }
    }
    const double finite = static_cast<double>(s.finiteCount);
    s.mean = sum / finite;
    s.l2Norm = std::sqrt(squares);
    double squaredDeviations = 0.0;
    for (std::int64_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(p[i]);
        if (std::isfinite(v))
            squaredDeviations += (v - s.mean) * (v - s.mean);
    }
    s.std = std::sqrt(squaredDeviations / finite);
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

template <class T> void fill(const T* p, std::int64_t n, TensorStats& s, bool histogram)
{
    Moments m;
    double k = 0.0;
    firstPass(p, n, s, m, k);
    if (s.finiteCount == 0) {
        setEmptyValues(s);
        return;
    }
    const double finite = static_cast<double>(s.finiteCount);
    const double shiftedMean = m.shifted / finite;
    s.mean = k + shiftedMean;
    s.meanAbs = m.sumAbs / finite;
    // sum x^2 = sum (x - K)^2 + 2 K sum (x - K) + n K^2
    const double squares = m.shiftedSquares + 2.0 * k * m.shifted + finite * k * k;
    s.l2Norm = std::sqrt(std::max(squares, 0.0));
    s.maxAbs = std::fmax(std::fabs(s.min), std::fabs(s.max));
    const double variance = m.shiftedSquares / finite - shiftedMean * shiftedMean;
    if (!std::isfinite(variance) || !std::isfinite(s.mean) || !std::isfinite(squares))
        exactMoments(p, n, s);
    else
        s.std = std::sqrt(std::max(variance, 0.0));
    setEdges(s);
    if (histogram)
        histogramPass(p, n, s);
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
        if constexpr (kIsComplex<T>) {
            const std::complex<double> x(a[i]);
            diff += std::abs(std::complex<double>(b[i]) - x);
            absA += std::abs(x);
        } else {
            const double x = static_cast<double>(a[i]);
            diff += std::fabs(static_cast<double>(b[i]) - x);
            absA += std::fabs(x);
        }
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
    if (isComplex(dtype))
        s += " |z|"; // the statistics are of the magnitudes
    s += " min " + shortNumber(min) + " max " + shortNumber(max) + " mean " + shortNumber(mean);
    s += " nan " + std::to_string(nanCount) + " inf " + std::to_string(infCount());
    return s;
}

namespace {
// Complex tensors are described by their magnitudes |z| (Float64), NaN where either part is
// NaN (hypot(inf, nan) would say inf and hide it).
Tensor magnitudes(const Tensor& t)
{
    Tensor out = Tensor::empty(t.shape(), DType::Float64);
    double* po = out.data<double>();
    visitComplex(t.dtype(), [&](auto* tag) {
        using C = std::remove_pointer_t<decltype(tag)>;
        const C* pz = static_cast<const C*>(t.rawData());
        for (std::int64_t i = 0, n = t.numel(); i < n; ++i) {
            const std::complex<double> z(pz[i]);
            po[i] = std::isnan(z.real()) || std::isnan(z.imag()) ? kNaN : std::abs(z);
        }
    });
    return out;
}

// Statistics are doubles anyway: storage dtypes are read through a compute dtype (UInt64 through
// Float64, which keeps its order and magnitude where Int64 would wrap).
Tensor computeView(const Tensor& t)
{
    if (isComputeDType(t.dtype()))
        return t;
    if (isComplex(t.dtype()))
        return magnitudes(t);
    return convertDType(t, t.dtype() == DType::UInt64 ? DType::Float64 : computeDType(t.dtype()));
}
} // namespace

TensorStats computeStats(const Tensor& original, bool histogram)
{
    const Tensor tensor = original.defined() ? computeView(original) : original;
    TensorStats s;
    if (!tensor.defined()) {
        setEmptyValues(s);
        return s;
    }
    s.shape = tensor.shape();
    s.dtype = original.dtype();
    s.count = tensor.numel();
    s.hasHistogram = false;
    visitDType(tensor.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        fill(static_cast<const T*>(tensor.rawData()), s.count, s, histogram);
    });
    if (s.finiteCount == 0)
        s.hasHistogram = true; // all zeros is the histogram of no finite values
    return s;
}

void fillHistogram(TensorStats& stats, const Tensor& original)
{
    if (stats.hasHistogram || !original.defined() || original.numel() != stats.count || stats.finiteCount == 0)
        return;
    const Tensor tensor = computeView(original);
    visitDType(tensor.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        histogramPass(static_cast<const T*>(tensor.rawData()), stats.count, stats);
    });
}

double relativeChange(const Tensor& before, const Tensor& after, double offset)
{
    if (!before.defined() || !after.defined() || !(before.shape() == after.shape())
        || before.numel() == 0)
        return kNaN;
    const bool sameKind = isComputeDType(before.dtype()) || isComplex(before.dtype());
    const Tensor b = after.dtype() == before.dtype() && sameKind ? after : Tensor();
    double meanAbsBefore = 0.0;
    double meanDiff = 0.0;
    if ((isComplex(before.dtype()) || isComplex(after.dtype())) && before.dtype() != after.dtype())
        return relativeChange(convertDType(before, DType::Complex128), convertDType(after, DType::Complex128), offset);
    if (b.defined()) {
        visitDataDType(before.dtype(), [&](auto* tag) {
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

} // namespace gradstep::debug
