// Tests of MindSpore's initializer fills (core/random/mindspore_fill.cpp, erf_inv.cpp): their words
// come from Random123's known answers (seed 0 is key 0, counter 0) and their inverse error
// function from values printed by mpmath. SPDX-License-Identifier: MIT
#include "random/erf_inv.h"
#include "random/mindspore_fill.h"

#include "tensor/errors.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

using namespace gradstep;

namespace {

// The first block of seed 0: Philox4x32-10 of counter 0 under key 0.
constexpr std::array<std::uint32_t, 4> kSeedZeroWords = {0x6627e8d5, 0xe169c58d, 0xbc57ac4c,
                                                         0x9b00dbd8};

// A word's 23 low bits as a fraction: MindSpore's [0, 1) value for Box-Muller.
double mantissaFraction(std::uint32_t word) { return (word & 0x7FFFFF) * 0x1.0p-23; }

} // namespace

TEST_CASE("uniform is (b - a) * word / 2^32 + a in double, rounded to float")
{
    std::array<float, 4> out{};
    fillMindSporeUniform(0, out.data(), out.size(), 0.0f, 1.0f);
    for (std::size_t i = 0; i < 4; ++i)
        CHECK(out[i] == static_cast<float>(kSeedZeroWords[i] * 0x1.0p-32));
    CHECK(out[0] == 0.39904648f);
    fillMindSporeUniform(0, out.data(), out.size(), -0.5f, 0.25f);
    for (std::size_t i = 0; i < 4; ++i)
        CHECK(out[i] == static_cast<float>(0.75 * (kSeedZeroWords[i] * 0x1.0p-32) - 0.5));
}

TEST_CASE("normal is Box-Muller on word pairs: cos first, then sin, with MindSpore's float pi")
{
    std::array<float, 4> out{};
    fillMindSporeNormal(0, out.data(), out.size(), 0.5f, 2.0f);
    const double pi = 3.1415926f;
    for (std::size_t pair = 0; pair < 2; ++pair) {
        const double u1 = mantissaFraction(kSeedZeroWords[2 * pair]);
        const double u2 = mantissaFraction(kSeedZeroWords[2 * pair + 1]);
        const double radius = std::sqrt(-2.0 * std::log(u1)) * 2.0;
        CHECK(out[2 * pair] == static_cast<float>(0.5 + radius * std::cos(2.0 * pi * u2)));
        CHECK(out[2 * pair + 1] == static_cast<float>(0.5 + radius * std::sin(2.0 * pi * u2)));
    }
    SECTION("an odd length ends with the cosine half of a pair")
    {
        std::array<float, 3> odd{};
        fillMindSporeNormal(0, odd.data(), odd.size(), 0.5f, 2.0f);
        CHECK(std::equal(odd.begin(), odd.end(), out.begin()));
    }
}

TEST_CASE("erfc^-1 matches mpmath in every band of the approximation")
{
    const struct {
        double z, expected;
    } cases[] = {
        {0.5, 0.47693627620446987},    // p <= 0.5
        {1.5, -0.47693627620446987},   // above 1, by symmetry
        {0.3, 0.73286907795921685},    // q in [0.25, 0.5)
        {0.01, 1.8213863677184497},    // tail, x < 3
        {1e-5, 3.1234132743408750},    // tail, x < 3
        {1e-10, 4.5728249673894853},   // tail, 3 <= x < 6
        {1.998046875, -2.1900999683537676}, // tail through 2 - z (z = 2 - 2^-9, exact)
        {1e-40, 9.4487897667208583},   // tail, 6 <= x < 18
        {1e-300, 26.209469960516124},  // tail, 18 <= x < 44
    };
    for (const auto& c : cases) {
        INFO("z = " << c.z);
        CHECK(erfcInvClamped(c.z) == Approx(c.expected).epsilon(1e-14));
    }
    SECTION("0 and 2 are clamped to the nearest floats inside, so stay finite")
    {
        // Not symmetric: next to 0 lies the smallest subnormal float, next to 2 the float 2^-23
        // below it, so the clamped ends are about 10.02 and -3.74.
        CHECK(erfcInvClamped(0.0) == erfcInvClamped(0x1.0p-149));
        CHECK(erfcInvClamped(0.0) == Approx(10.0198342659));
        CHECK(erfcInvClamped(2.0) == -erfcInvClamped(0x1.0p-23));
        CHECK(erfcInvClamped(2.0) == Approx(-3.7439211628));
        CHECK(erfcInvClamped(-1.0) == erfcInvClamped(0.0));
    }
}

TEST_CASE("truncated normal is the inverse CDF of a uniform between Phi(alpha) and Phi(beta)")
{
    const double rootTwo = 1.4142135f;
    const auto phi = [&](double x) { return std::erfc(-(x / rootTwo)) / 2.0; };
    SECTION("bounds far outside make it the plain quantile (MindSpore's -2, 2 at sigma 0.02)")
    {
        std::array<float, 4> out{};
        fillMindSporeTruncatedNormal(0, out.data(), out.size(), -2.0f, 2.0f, 0.0f, 0.02f);
        for (std::size_t i = 0; i < 4; ++i) {
            const double p = phi(-2.0 / double(0.02f)) + kSeedZeroWords[i] * 0x1.0p-32
                * (phi(2.0 / double(0.02f)) - phi(-2.0 / double(0.02f)));
            CHECK(out[i] == static_cast<float>(-erfcInvClamped(2.0 * p) * rootTwo * double(0.02f)));
        }
    }
    SECTION("a and b are absolute bounds: every draw lies inside them")
    {
        std::vector<float> out(4096);
        fillMindSporeTruncatedNormal(7, out.data(), out.size(), -0.5f, 1.5f, 1.0f, 2.0f);
        CHECK(*std::min_element(out.begin(), out.end()) >= -0.5f);
        CHECK(*std::max_element(out.begin(), out.end()) <= 1.5f);
        // Near uniform here (the bounds sit within a quarter sigma of the mean's side).
        CHECK(*std::min_element(out.begin(), out.end()) < -0.49f);
        CHECK(*std::max_element(out.begin(), out.end()) > 1.49f);
    }
    SECTION("sigma must be positive")
    {
        float x = 0;
        CHECK_THROWS_AS(fillMindSporeTruncatedNormal(1, &x, 1, -2.0f, 2.0f, 0.0f, 0.0f), ValueError);
    }
}
