// Tests of the weight initializers (core/nn/initializer.cpp). SPDX-License-Identifier: MIT
#include "nn/initializer.h"

#include <catch2/catch.hpp>

#include "random/generator.h"
#include "random/mindspore_fill.h"

#include <cmath>
#include <cstring>
#include <vector>

using namespace gradstep;

namespace {

struct Moments {
    double mean = 0, stddev = 0, minimum = 0, maximum = 0;
};

Moments moments(const Tensor& t)
{
    Moments m{0, 0, t.at(0), t.at(0)};
    for (std::int64_t i = 0; i < t.numel(); ++i) {
        m.mean += t.at(i);
        m.minimum = std::min(m.minimum, t.at(i));
        m.maximum = std::max(m.maximum, t.at(i));
    }
    m.mean /= static_cast<double>(t.numel());
    for (std::int64_t i = 0; i < t.numel(); ++i)
        m.stddev += (t.at(i) - m.mean) * (t.at(i) - m.mean);
    m.stddev = std::sqrt(m.stddev / static_cast<double>(t.numel()));
    return m;
}

bool bitIdentical(const Tensor& a, const Tensor& b)
{
    return a.shape() == b.shape() && a.dtype() == b.dtype()
        && std::memcmp(a.rawData(), b.rawData(), a.nbytes()) == 0;
}

/// Hands out 1, 2, 3, ... and counts what was taken.
class CountingSeeds : public InitSeedSource {
public:
    std::uint64_t nextSeed() override { return ++taken; }
    std::uint64_t taken = 0;
};

} // namespace

TEST_CASE("fans are computed from out and in times the receptive field")
{
    CHECK(computeFans(Shape{120, 400}).fanIn == 400);
    CHECK(computeFans(Shape{120, 400}).fanOut == 120);
    CHECK(computeFans(Shape{6, 1, 5, 5}).fanIn == 25);
    CHECK(computeFans(Shape{6, 1, 5, 5}).fanOut == 150);
    CHECK_THROWS_AS(computeFans(Shape{3}), ValueError);
}

TEST_CASE("gains match calculate_gain")
{
    CHECK(calculateGain("linear") == 1.0);
    CHECK(calculateGain("tanh") == Approx(5.0 / 3.0));
    CHECK(calculateGain("relu") == Approx(std::sqrt(2.0)));
    CHECK(calculateGain("leaky_relu", std::sqrt(5.0)) == Approx(std::sqrt(1.0 / 3.0)));
    CHECK_THROWS_AS(calculateGain("swish"), ValueError);
}

TEST_CASE("each initializer draws from its documented distribution")
{
    NumpySeedStream gen(7);
    Tensor t = Tensor::empty(Shape{200, 100});
    SECTION("Normal(sigma=0.01) by default")
    {
        Normal().fill(t, gen);
        CHECK(moments(t).mean == Approx(0.0).margin(5e-4));
        CHECK(moments(t).stddev == Approx(0.01).epsilon(0.03));
    }
    SECTION("TruncatedNormal cuts at MindSpore 2.2's absolute bounds -2 and 2, not at 2 sigma")
    {
        // sigma 2 puts the bounds at one sigma; the standard deviation of N(0, 1) cut at +-1 is
        // sqrt(1 - 2 phi(1) / (2 Phi(1) - 1)) = 0.53956.
        TruncatedNormal(2.0).fill(t, gen);
        CHECK(moments(t).maximum <= 2.0);
        CHECK(moments(t).minimum >= -2.0);
        CHECK(moments(t).maximum > 1.99);
        CHECK(moments(t).stddev == Approx(2.0 * 0.53956).epsilon(0.02));
    }
    SECTION("HeUniform defaults to negative_slope 0: bound sqrt(2) sqrt(3 / fan_in)")
    {
        HeUniform().fill(t, gen);
        const double bound = std::sqrt(2.0) * std::sqrt(3.0 / 100.0);
        CHECK(moments(t).maximum <= bound);
        CHECK(moments(t).maximum > 0.99 * bound);
        CHECK(moments(t).minimum >= -bound);
    }
    SECTION("HeUniform(sqrt(5)) is U(-1/sqrt(fan_in), 1/sqrt(fan_in)); fan_out mode uses the rows")
    {
        HeUniform(std::sqrt(5.0)).fill(t, gen);
        CHECK(moments(t).maximum <= 0.1);
        CHECK(moments(t).maximum > 0.099);
        HeUniform(std::sqrt(5.0), "fan_out").fill(t, gen);
        CHECK(moments(t).maximum <= 1.0 / std::sqrt(200.0));
        CHECK_THROWS_AS(HeUniform(0.0, "fan_middle"), ValueError);
    }
    SECTION("HeNormal has std gain / sqrt(fan_in)")
    {
        HeNormal().fill(t, gen);
        CHECK(moments(t).stddev == Approx(std::sqrt(2.0) / 10.0).epsilon(0.03));
    }
    SECTION("XavierNormal has std gain sqrt(2 / (fan_in + fan_out))")
    {
        XavierNormal(2.0).fill(t, gen);
        CHECK(moments(t).stddev == Approx(2.0 * std::sqrt(2.0 / 300.0)).epsilon(0.03));
    }
    SECTION("XavierUniform has bound gain sqrt(6 / (fan_in + fan_out))")
    {
        XavierUniform(2.0).fill(t, gen);
        const double bound = 2.0 * std::sqrt(6.0 / 300.0);
        CHECK(moments(t).maximum <= bound);
        CHECK(moments(t).maximum > 0.99 * bound);
    }
    SECTION("Uniform(scale=0.07) by default")
    {
        Uniform().fill(t, gen);
        CHECK(moments(t).maximum <= 0.07);
        CHECK(moments(t).minimum >= -0.07);
        CHECK(moments(t).stddev == Approx(0.07 / std::sqrt(3.0)).epsilon(0.03));
    }
    SECTION("Zero, One and Constant")
    {
        Zero().fill(t, gen);
        CHECK(moments(t).maximum == 0.0);
        One().fill(t, gen);
        CHECK(moments(t).minimum == 1.0);
        Constant(-2.5).fill(t, gen);
        CHECK(moments(t).mean == -2.5);
    }
}

TEST_CASE("the same seed gives bit-identical draws, and float64 holds the float32 draws")
{
    NumpySeedStream a(42), b(42), c(43);
    Tensor x = Tensor::empty(Shape{10, 10}), y = Tensor::empty(Shape{10, 10}),
           z = Tensor::empty(Shape{10, 10});
    Normal().fill(x, a);
    Normal().fill(y, b);
    Normal().fill(z, c);
    CHECK(bitIdentical(x, y));
    CHECK_FALSE(bitIdentical(x, z));
    // MindSpore fills a float32 buffer whatever the parameter's dtype.
    Tensor d = Tensor::empty(Shape{10, 10}, DType::Float64);
    NumpySeedStream again(42);
    Normal().fill(d, again);
    for (std::int64_t i = 0; i < 100; ++i)
        CHECK(d.at(i) == x.at(i));
}

TEST_CASE("a random initializer takes one seed per call and fills from it, a constant takes none")
{
    CountingSeeds seeds;
    Tensor t = Tensor::empty(Shape{3, 5});
    Uniform(0.25).fill(t, seeds);
    CHECK(seeds.taken == 1);
    std::vector<float> expected(15);
    fillMindSporeUniform(1, expected.data(), expected.size(), -0.25f, 0.25f);
    for (std::int64_t i = 0; i < 15; ++i)
        CHECK(t.at(i) == expected[static_cast<std::size_t>(i)]);
    for (const auto& init : {initializerByName("normal"), initializerByName("truncatedNormal"),
                             initializerByName("he_uniform"), initializerByName("he_normal"),
                             initializerByName("xavier_uniform"), initializerByName("xavier_normal")})
        init->fill(t, seeds);
    CHECK(seeds.taken == 7);
    Constant(3.0).fill(t, seeds);
    Zero().fill(t, seeds);
    CHECK(seeds.taken == 7);
}

TEST_CASE("He and Xavier bounds are computed as MindSpore's Python does, then rounded to float")
{
    // HeUniform: std = gain / sqrt(fan); bound = sqrt(3) * std. XavierUniform: gain * sqrt(6 /
    // (fan_in + fan_out)). Shape [4, 6]: fan_in 6, fan_out 4.
    const auto expectUniform = [](const Initializer& init, double bound) {
        CountingSeeds seeds;
        Tensor t = Tensor::empty(Shape{4, 6});
        init.fill(t, seeds);
        std::vector<float> expected(24);
        const float b = static_cast<float>(bound);
        fillMindSporeUniform(1, expected.data(), expected.size(), -b, b);
        for (std::int64_t i = 0; i < 24; ++i)
            CHECK(t.at(i) == expected[static_cast<std::size_t>(i)]);
    };
    expectUniform(HeUniform(), std::sqrt(3.0) * (std::sqrt(2.0) / std::sqrt(6.0)));
    expectUniform(HeUniform(std::sqrt(5.0)),
                  std::sqrt(3.0) * (std::sqrt(2.0 / (1.0 + std::pow(std::sqrt(5.0), 2.0))) / std::sqrt(6.0)));
    expectUniform(XavierUniform(1.5), 1.5 * std::sqrt(6.0 / 10.0));
}

TEST_CASE("init specs accept names, initializers and tensors")
{
    setSeed(1);
    CHECK(initializer("zeros", Shape{2, 3}).at(5) == 0.0);
    CHECK(initializer("ones", Shape{2}, DType::Float64).dtype() == DType::Float64);
    CHECK(initializer(Constant(4.0), Shape{1}).at(0) == 4.0);
    Tensor given = Tensor::fromVector<float>({2}, {1.f, 2.f});
    Tensor copy = initializer(given, Shape{2});
    CHECK(copy.at(1) == 2.0);
    CHECK_FALSE(copy.sameAs(given));
    CHECK_THROWS_AS(initializer(given, Shape{3}), ValueError);
    CHECK_THROWS_WITH(initializer("glorot", Shape{2, 2}),
                      Catch::Contains("unknown initializer 'glorot'"));
    CHECK_THROWS_AS(initializer(InitSpec(), Shape{2}), ValueError);
}

TEST_CASE("setSeed(1) without Python gives the weights a script gets after np.random.seed(1)")
{
    // Printed by `gradstep run` of np.random.seed(1) and three initializer(init, (4,)) calls, where
    // the seeds come from NumPy itself (the run whose LeNet reproduces MindSpore's test losses).
    const auto bits = [](const Tensor& t) {
        std::vector<std::uint32_t> out(static_cast<std::size_t>(t.numel()));
        std::memcpy(out.data(), t.rawData(), t.nbytes());
        return out;
    };
    setSeed(1);
    CHECK(bits(Normal()(Shape{4}))
          == std::vector<std::uint32_t>{0x3bd5fcb8, 0x3c774420, 0x3b2d7f61, 0xbb7588ae});
    CHECK(bits(TruncatedNormal(0.02)(Shape{4}))
          == std::vector<std::uint32_t>{0xbc2becbf, 0xba5b90b1, 0x3d0bcdf9, 0x3c5645f6});
    CHECK(bits(Uniform(0.5)(Shape{4}))
          == std::vector<std::uint32_t>{0x3ebe89b9, 0x3df80747, 0xbeee1fff, 0x3df0527a});
}
