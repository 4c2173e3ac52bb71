// Tests of tensor statistics (core/debug/tensor_stats.h) against closed forms.
// SPDX-License-Identifier: MIT
#include "debug/tensor_stats.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace gradstep;
using namespace gradstep::debug;
using Catch::Detail::Approx;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
} // namespace

TEST_CASE("stats of 1..8 match the closed forms for mean, population std, l2 and zeros")
{
    const TensorStats s = computeStats(Tensor::fromVector<float>(Shape{2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}));
    CHECK(s.shape == Shape{2, 4});
    CHECK(s.dtype == DType::Float32);
    CHECK(s.count == 8);
    CHECK(s.finiteCount == 8);
    CHECK(s.min == 1.0);
    CHECK(s.max == 8.0);
    CHECK(s.mean == Approx(4.5));
    CHECK(s.std == Approx(std::sqrt(63.0 / 12.0))); // (n^2 - 1) / 12 for 1..n
    CHECK(s.l2Norm == Approx(std::sqrt(204.0)));
    CHECK(s.maxAbs == 8.0);
    CHECK(s.meanAbs == Approx(4.5));
    CHECK(s.zeroCount == 0);
    CHECK(s.zeroShare() == 0.0);
    CHECK(s.allFinite());
}

TEST_CASE("the 32-bin histogram spans min to max, holds every finite value and puts max in the last bin")
{
    std::vector<double> values;
    for (int i = 0; i <= 64; ++i)
        values.push_back(i);
    const TensorStats s = computeStats(Tensor::fromDoubles(Shape{65}, values, DType::Float64));
    CHECK(s.edges.front() == 0.0);
    CHECK(s.edges.back() == 64.0);
    CHECK(s.edges[1] == Approx(2.0));
    std::int64_t total = 0;
    for (std::int64_t b : s.bins)
        total += b;
    CHECK(total == 65);
    CHECK(s.bins[0] == 2);   // 0 and 1
    CHECK(s.bins[31] == 3);  // 62, 63 and 64
}

TEST_CASE("NaN and infinities are counted apart and left out of every value statistic")
{
    const TensorStats s = computeStats(
        Tensor::fromDoubles(Shape{6}, {1.0, kNaN, kInf, -kInf, 3.0, kNaN}, DType::Float64));
    CHECK(s.count == 6);
    CHECK(s.nanCount == 2);
    CHECK(s.posInfCount == 1);
    CHECK(s.negInfCount == 1);
    CHECK(s.infCount() == 2);
    CHECK(s.finiteCount == 2);
    CHECK_FALSE(s.allFinite());
    CHECK(s.min == 1.0);
    CHECK(s.max == 3.0);
    CHECK(s.mean == 2.0);
    CHECK(s.std == 1.0);
    CHECK(s.bins[0] + s.bins[31] == 2);
}

TEST_CASE("a tensor with no finite value has NaN statistics and an empty histogram")
{
    const TensorStats s = computeStats(Tensor::fromDoubles(Shape{2}, {kNaN, kInf}));
    CHECK(s.finiteCount == 0);
    CHECK(std::isnan(s.min));
    CHECK(std::isnan(s.mean));
    CHECK(std::isnan(s.l2Norm));
    for (std::int64_t b : s.bins)
        CHECK(b == 0);
}

TEST_CASE("an empty tensor has count zero, zero share zero and NaN statistics")
{
    const TensorStats s = computeStats(Tensor::zeros(Shape{0, 3}));
    CHECK(s.count == 0);
    CHECK(s.shape == Shape{0, 3});
    CHECK(s.zeroShare() == 0.0);
    CHECK(std::isnan(s.max));
    CHECK(computeStats(Tensor()).count == 0);
}

TEST_CASE("a constant tensor gets edges one wide around its value, as numpy.histogram does")
{
    const TensorStats s = computeStats(Tensor::full(Shape{4}, 2.0));
    CHECK(s.std == 0.0);
    CHECK(s.edges.front() == 1.5);
    CHECK(s.edges.back() == 2.5);
    CHECK(s.bins[16] == 4);
}

TEST_CASE("int and bool tensors are read as numbers")
{
    const TensorStats i = computeStats(Tensor::fromVector<std::int32_t>(Shape{4}, {-2, 0, 0, 6}));
    CHECK(i.dtype == DType::Int32);
    CHECK(i.min == -2.0);
    CHECK(i.max == 6.0);
    CHECK(i.mean == 1.0);
    CHECK(i.zeroCount == 2);
    CHECK(i.zeroShare() == 0.5);
    CHECK(i.allFinite());
    const TensorStats l = computeStats(Tensor::fromVector<std::int64_t>(Shape{2}, {-5, 5}));
    CHECK(l.l2Norm == Approx(std::sqrt(50.0)));
    const TensorStats b = computeStats(Tensor::fromVector<bool>(Shape{3}, {true, false, true}));
    CHECK(b.mean == Approx(2.0 / 3.0));
    CHECK(b.zeroCount == 1);
}

TEST_CASE("near-zero and near-one counts measure sigmoid and tanh saturation")
{
    const TensorStats s = computeStats(Tensor::fromVector<float>(Shape{5}, {0.001f, 0.5f, 0.995f, -0.999f, 0.0f}));
    CHECK(s.nearZeroCount == 2);
    CHECK(s.nearOneCount == 2);
}

TEST_CASE("stats stay finite for doubles near the top of the range")
{
    const double big = std::numeric_limits<double>::max();
    const TensorStats s = computeStats(Tensor::fromDoubles(Shape{2}, {-big, big}, DType::Float64));
    CHECK(s.bins[0] == 1);
    CHECK(s.bins[31] == 1);
}

TEST_CASE("relative change is MindInsight's mean abs difference over mean abs before plus offset")
{
    const Tensor before = Tensor::fromVector<float>(Shape{2}, {1.0f, -3.0f});
    const Tensor after = Tensor::fromVector<float>(Shape{2}, {1.5f, -3.5f});
    CHECK(relativeChange(before, after, 0.0) == Approx(0.5 / 2.0));
    CHECK(relativeChange(before, before) == 0.0);
    CHECK(relativeChange(Tensor::zeros(Shape{2}), Tensor::zeros(Shape{2})) == 0.0);
    CHECK(std::isnan(relativeChange(before, Tensor::zeros(Shape{3}))));
    CHECK(relativeChange(before, Tensor::fromVector<double>(Shape{2}, {1.5, -3.5}), 0.0) == Approx(0.25));
}

TEST_CASE("stats are named for predicates and unknown names are refused")
{
    CHECK(parseStat("max_abs") == Stat::MaxAbs);
    CHECK(parseStat("norm") == Stat::L2);
    CHECK_FALSE(parseStat("maximum"));
    const TensorStats s = computeStats(Tensor::fromVector<float>(Shape{2}, {-4.0f, 3.0f}));
    CHECK(statValue(s, Stat::MaxAbs) == 4.0);
    CHECK(statValue(s, Stat::L2) == 5.0);
    CHECK(statName(Stat::ZeroShare) == "zero_share");
    CHECK(statNames().find("nan_count") != std::string::npos);
}

TEST_CASE("stats of a large float tensor match a double reference, with NaN and Inf in some blocks")
{
    const std::int64_t n = 10007; // blocks of 256 and a tail
    std::vector<float> values(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
        values[static_cast<std::size_t>(i)] = static_cast<float>(100.0 + std::sin(0.37 * static_cast<double>(i)));
    values[300] = std::numeric_limits<float>::quiet_NaN();
    values[5000] = std::numeric_limits<float>::infinity();
    values[10005] = -std::numeric_limits<float>::infinity();
    values[7] = 0.0f;
    double sum = 0, sumSq = 0, lo = 1e9, hi = -1e9;
    std::int64_t finite = 0;
    for (float v : values)
        if (std::isfinite(v)) {
            sum += v;
            sumSq += static_cast<double>(v) * v;
            lo = std::min(lo, static_cast<double>(v));
            hi = std::max(hi, static_cast<double>(v));
            ++finite;
        }
    const double mean = sum / static_cast<double>(finite);
    double dev = 0;
    for (float v : values)
        if (std::isfinite(v))
            dev += (v - mean) * (v - mean);
    const TensorStats s = computeStats(Tensor::fromVector<float>(Shape{n}, values));
    CHECK(s.finiteCount == finite);
    CHECK(s.nanCount == 1);
    CHECK(s.posInfCount == 1);
    CHECK(s.negInfCount == 1);
    CHECK(s.zeroCount == 1);
    CHECK(s.min == lo);
    CHECK(s.max == hi);
    CHECK(s.mean == Approx(mean).epsilon(1e-8));
    CHECK(s.l2Norm == Approx(std::sqrt(sumSq)).epsilon(1e-8));
    CHECK(s.std == Approx(std::sqrt(dev / static_cast<double>(finite))).epsilon(1e-6));
    std::int64_t binned = 0;
    for (std::int64_t b : s.bins)
        binned += b;
    CHECK(binned == finite);
}

TEST_CASE("stats without the histogram get the same bins from fillHistogram later")
{
    std::vector<float> values(1000);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = static_cast<float>(std::cos(0.1 * static_cast<double>(i)));
    const Tensor t = Tensor::fromVector<float>(Shape{1000}, values);
    const TensorStats full = computeStats(t);
    TensorStats lazy = computeStats(t, false);
    CHECK(full.hasHistogram);
    CHECK_FALSE(lazy.hasHistogram);
    CHECK(lazy.mean == full.mean);
    CHECK(lazy.edges == full.edges);
    fillHistogram(lazy, t);
    CHECK(lazy.hasHistogram);
    CHECK(lazy.bins == full.bins);
}
