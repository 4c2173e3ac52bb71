// Tests of Conv2D, Conv2DBackpropInput and Conv2DBackpropFilter (core/ops/nn/conv2d*.cpp)
// against a direct seven-loop convolution. SPDX-License-Identifier: MIT
#include "ops/ops.h"
#include "tests/core/ops/gradcheck.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace gradstep;
using gradstep::testing::convOptions;
using gradstep::testing::sample;

namespace {

struct Case {
    const char* name;
    Shape x, w;
    Conv2dOptions options;
    std::array<std::int64_t, 4> pad; // the padding the mode implies: top, bottom, left, right
};

std::vector<Case> cases()
{
    return {
        {"valid", {2, 3, 7, 6}, {4, 3, 3, 2}, convOptions({1, 1}, "valid", {0}, {1, 1}, 1), {0, 0, 0, 0}},
        {"valid, stride 2 with a dropped row", {1, 2, 8, 7}, {3, 2, 3, 3}, convOptions({2, 2}, "valid", {0}, {1, 1}, 1),
         {0, 0, 0, 0}},
        // H 7, stride 2 -> 4 outputs, total padding 3*2 + 3 - 7 = 2: (1, 1); W 6, kernel 4 -> (1, 2).
        {"same, stride 2, odd total padding on W", {2, 2, 7, 6}, {2, 2, 3, 4}, convOptions({2, 2}, "same", {0}, {1, 1}, 1),
         {1, 1, 1, 2}},
        // dilated kernel extent 5 on H 6 -> total 4 (2, 2); extent 3 on W 5 -> (1, 1).
        {"same, dilation 2", {1, 2, 6, 5}, {3, 2, 3, 2}, convOptions({1, 1}, "same", {0}, {2, 2}, 1), {2, 2, 1, 1}},
        {"pad (1, 0, 2, 1), stride (2, 1), dilation (1, 2)", {2, 2, 6, 7}, {2, 2, 2, 3},
         convOptions({2, 1}, "pad", {1, 0, 2, 1}, {1, 2}, 1), {1, 0, 2, 1}},
        {"pad 1 on every side, group 2", {1, 4, 5, 5}, {6, 2, 3, 3}, convOptions({1, 1}, "pad", {1}, {1, 1}, 2),
         {1, 1, 1, 1}},
        // Unpadded stride-1 rows take fixed-width copies (conv_cols.h) up to 32 elements, wider ones the
        // general loop; both with dilation and a row stride.
        {"valid, dilation (2, 3), stride (2, 1)", {2, 2, 9, 11}, {3, 2, 3, 2}, convOptions({2, 1}, "valid", {0}, {2, 3}, 1),
         {0, 0, 0, 0}},
        {"valid, rows of 38 past the fixed widths", {1, 2, 4, 40}, {2, 2, 2, 3}, convOptions({1, 1}, "valid", {0}, {1, 1}, 1),
         {0, 0, 0, 0}},
        // 8 * 4 * 4 = 128 col rows over 16 positions: the filter gradient's transposed-copy layout.
        {"valid, 128 col rows", {2, 8, 7, 7}, {4, 8, 4, 4}, convOptions({1, 1}, "valid", {0}, {1, 1}, 1), {0, 0, 0, 0}},
        {"1x1 kernel, group 3", {2, 6, 3, 4}, {3, 2, 1, 1}, convOptions({1, 1}, "valid", {0}, {1, 1}, 3), {0, 0, 0, 0}},
    };
}

struct Geometry {
    std::int64_t n, c, h, w, o, kh, kw, sh, sw, dh, dw, oh, ow, group;
    std::array<std::int64_t, 4> pad;
};

Geometry geometryOf(const Case& c)
{
    const auto& s = c.options.stride;
    const auto& d = c.options.dilation;
    Geometry g{c.x[0], c.x[1], c.x[2], c.x[3], c.w[0], c.w[2], c.w[3], s[0], s[1], d[0], d[1], 0, 0,
               c.options.group, c.pad};
    g.oh = (g.h + g.pad[0] + g.pad[1] - (g.kh - 1) * g.dh - 1) / g.sh + 1;
    g.ow = (g.w + g.pad[2] + g.pad[3] - (g.kw - 1) * g.dw - 1) / g.sw + 1;
    return g;
}

// Calls f(xIndex, wIndex, yIndex) for every multiply-add of the convolution.
template <class F> void forEachTap(const Geometry& g, F f)
{
    const std::int64_t cg = g.c / g.group, og = g.o / g.group;
    for (std::int64_t n = 0; n < g.n; ++n)
        for (std::int64_t o = 0; o < g.o; ++o)
            for (std::int64_t i = 0; i < g.oh; ++i)
                for (std::int64_t j = 0; j < g.ow; ++j)
                    for (std::int64_t c = 0; c < cg; ++c)
                        for (std::int64_t p = 0; p < g.kh; ++p)
                            for (std::int64_t q = 0; q < g.kw; ++q) {
                                const std::int64_t ih = i * g.sh - g.pad[0] + p * g.dh;
                                const std::int64_t iw = j * g.sw - g.pad[2] + q * g.dw;
                                if (ih < 0 || ih >= g.h || iw < 0 || iw >= g.w)
                                    continue;
                                const std::int64_t ic = (o / og) * cg + c;
                                f(((n * g.c + ic) * g.h + ih) * g.w + iw, ((o * cg + c) * g.kh + p) * g.kw + q,
                                  ((n * g.o + o) * g.oh + i) * g.ow + j);
                            }
}

void checkClose(const Tensor& actual, const std::vector<double>& expected, double tolerance)
{
    REQUIRE(actual.numel() == static_cast<std::int64_t>(expected.size()));
    double worst = 0;
    for (std::int64_t i = 0; i < actual.numel(); ++i)
        worst = std::max(worst, std::abs(actual.at(i) - expected[static_cast<std::size_t>(i)]));
    CHECK(worst <= tolerance);
}

} // namespace

TEST_CASE("conv2d matches a direct loop for every pad mode, stride, dilation and group")
{
    for (const Case& c : cases()) {
        DYNAMIC_SECTION(c.name)
        {
            const Geometry g = geometryOf(c);
            const Tensor x = sample(c.x, -1, 1, 1), w = sample(c.w, -1, 1, 2);
            const Tensor dy = sample({g.n, g.o, g.oh, g.ow}, -1, 1, 3);
            std::vector<double> y(static_cast<std::size_t>(dy.numel())), dx(static_cast<std::size_t>(x.numel())),
                dw(static_cast<std::size_t>(w.numel()));
            forEachTap(g, [&](std::int64_t xi, std::int64_t wi, std::int64_t yi) {
                y[static_cast<std::size_t>(yi)] += x.at(xi) * w.at(wi);
                dx[static_cast<std::size_t>(xi)] += dy.at(yi) * w.at(wi);
                dw[static_cast<std::size_t>(wi)] += dy.at(yi) * x.at(xi);
            });
            const Tensor out = conv2d(x, w, c.options);
            CHECK(out.shape() == Shape{g.n, g.o, g.oh, g.ow});
            checkClose(out, y, 1e-12);
            checkClose(conv2dBackpropInput(dy, w, c.x.toVector(), c.options), dx, 1e-12);
            checkClose(conv2dBackpropFilter(dy, x, c.w.toVector(), c.options), dw, 1e-12);
            // Float32 runs the sgemm path and copies runs in other chunks than float64.
            const Tensor x32 = cast(x, DType::Float32), w32 = cast(w, DType::Float32), dy32 = cast(dy, DType::Float32);
            checkClose(conv2d(x32, w32, c.options), y, 1e-5);
            checkClose(conv2dBackpropInput(dy32, w32, c.x.toVector(), c.options), dx, 1e-5);
            checkClose(conv2dBackpropFilter(dy32, x32, c.w.toVector(), c.options), dw, 1e-5);
        }
    }
}

TEST_CASE("conv2d output sizes follow MindSpore's formulas")
{
    Conv2dOptions same;
    same.padMode = "same";
    same.stride = {3, 3};
    CHECK(conv2d(Tensor::zeros({1, 1, 10, 7}), Tensor::zeros({1, 1, 4, 4}), same).shape() == Shape{1, 1, 4, 3});
    Conv2dOptions valid;
    valid.stride = {2};
    CHECK(conv2d(Tensor::zeros({2, 1, 32, 32}), Tensor::zeros({6, 1, 5, 5}), valid).shape() == Shape{2, 6, 14, 14});
    // An empty batch gives an empty output of the right shape.
    CHECK(conv2d(Tensor::zeros({0, 3, 5, 5}), Tensor::zeros({2, 3, 3, 3})).shape() == Shape{0, 2, 3, 3});
}

TEST_CASE("conv2d propagates NaN only to the outputs whose window reads it")
{
    Tensor x = Tensor::zeros({1, 1, 4, 4}, DType::Float64);
    x.data<double>()[0] = std::nan("");
    const Tensor y = conv2d(x, Tensor::full({1, 1, 2, 2}, 1.0, DType::Float64));
    CHECK(std::isnan(y.at(0)));
    CHECK(y.at(8) == 0.0);
}

TEST_CASE("conv2d errors name the op and both shapes")
{
    const Tensor x = Tensor::zeros({1, 3, 8, 8});
    CHECK_THROWS_AS(conv2d(x, Tensor::zeros({4, 2, 3, 3})), ShapeError);
    CHECK_THROWS_WITH(conv2d(x, Tensor::zeros({4, 2, 3, 3})),
                      Catch::Contains("'Conv2D'") && Catch::Contains("3 channels") && Catch::Contains("[1, 3, 8, 8]")
                          && Catch::Contains("[4, 2, 3, 3]"));
    CHECK_THROWS_AS(conv2d(Tensor::zeros({3, 8, 8}), Tensor::zeros({4, 3, 3, 3})), ShapeError);
    CHECK_THROWS_AS(conv2d(x, Tensor::zeros({4, 3, 9, 3})), ShapeError);
    Conv2dOptions grouped;
    grouped.group = 2;
    CHECK_THROWS_WITH(conv2d(Tensor::zeros({1, 4, 8, 8}), Tensor::zeros({3, 2, 3, 3}), grouped),
                      Catch::Contains("not divisible by group 2"));
    Conv2dOptions hugeGroup; // weight channels * group overflows int64 (fuzz find)
    hugeGroup.group = std::numeric_limits<std::int64_t>::max();
    CHECK_THROWS_AS(conv2d(Tensor::zeros({1, 4, 8, 8}), Tensor::zeros({4, 4, 3, 3}), hugeGroup), ShapeError);
    Conv2dOptions badMode;
    badMode.padMode = "full";
    CHECK_THROWS_AS(conv2d(x, Tensor::zeros({4, 3, 3, 3}), badMode), ValueError);
    Conv2dOptions padWithoutMode;
    padWithoutMode.padding = {1, 1, 1, 1};
    CHECK_THROWS_WITH(conv2d(x, Tensor::zeros({4, 3, 3, 3}), padWithoutMode),
                      Catch::Contains("pad must be 0 unless pad_mode is 'pad'"));
    Conv2dOptions zeroStride;
    zeroStride.stride = {0, 1};
    CHECK_THROWS_AS(conv2d(x, Tensor::zeros({4, 3, 3, 3}), zeroStride), ValueError);
    CHECK_THROWS_AS(conv2d(Tensor::zeros({1, 3, 8, 8}, DType::Int32), Tensor::zeros({4, 3, 3, 3}, DType::Int32)),
                    DTypeError);
    CHECK_THROWS_AS(conv2d(x, Tensor::zeros({4, 3, 3, 3}, DType::Float64)), DTypeError);
    CHECK_THROWS_WITH(conv2dBackpropInput(Tensor::zeros({1, 4, 5, 5}), Tensor::zeros({4, 3, 3, 3}), {1, 3, 8, 8}),
                      Catch::Contains("'Conv2DBackpropInput'") && Catch::Contains("expected [1, 4, 6, 6]"));
}
