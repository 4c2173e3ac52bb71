// Tests of the tiled 2x2 stride-2 max-pool kernels (core/ops/nn/max_pool_tiled.cpp) through
// MaxPool, MaxPoolGrad, MaxPoolReluGrad and MaxPoolGradGrad: bit for bit against a scalar
// reference of Note [Tiled 2x2 pooling]. SPDX-License-Identifier: MIT
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using namespace gradstep;

namespace {
template <class T> using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

// Few distinct values, so most windows hold ties (0.0 against -0.0 among them), infinities, and
// one element in 16 a NaN, of two payloads and signs, so that which NaN comes out is visible.
template <class T> std::vector<T> awkward(std::size_t n, std::mt19937& rng)
{
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    const T otherNaN = -std::bit_cast<T>(std::bit_cast<Bits<T>>(nan) | Bits<T>(5));
    const T values[] = {T(0), T(-0.0), T(1), T(-1), T(2), T(0.5), inf, -inf, T(2), T(0), T(-0.0), T(1), T(-3),
                        T(0), nan, otherNaN};
    std::vector<T> v(n);
    for (T& e : v)
        e = values[rng() % std::size(values)];
    return v;
}

template <class T> struct Expected {
    std::vector<T> y, dx, reluDx, gradGrad;
};

// The definition, window by window: the value is the row-major left fold of `e > m || e is NaN`
// (the last NaN, else the first maximum); the FIRST NaN, else the first maximum, is the winner.
template <class T>
Expected<T> reference(const std::vector<T>& x, const std::vector<T>& dy, const std::vector<T>& g, std::int64_t planes,
                      std::int64_t h, std::int64_t w)
{
    const std::int64_t oh = h / 2, ow = w / 2;
    const auto outputs = static_cast<std::size_t>(planes * oh * ow);
    Expected<T> r{std::vector<T>(outputs), std::vector<T>(x.size(), T(0)), std::vector<T>(x.size(), T(0)),
                  std::vector<T>(outputs)};
    for (std::int64_t p = 0; p < planes; ++p)
        for (std::int64_t i = 0; i < oh; ++i)
            for (std::int64_t j = 0; j < ow; ++j) {
                const auto o = static_cast<std::size_t>((p * oh + i) * ow + j);
                const auto top = static_cast<std::size_t>((p * h + 2 * i) * w + 2 * j);
                const std::size_t at[4] = {top, top + 1, top + static_cast<std::size_t>(w),
                                           top + static_cast<std::size_t>(w) + 1};
                T m = x[at[0]];
                for (std::size_t k : at)
                    m = x[k] > m || std::isnan(x[k]) ? x[k] : m;
                std::size_t win = 4;
                for (std::size_t k = 0; k < 4 && win == 4; ++k)
                    win = std::isnan(x[at[k]]) ? k : win;
                for (std::size_t k = 0; k < 4 && win == 4; ++k)
                    win = x[at[k]] == m ? k : win;
                REQUIRE(win < 4);
                r.y[o] = m;
                r.dx[at[win]] = dy[o];
                r.reluDx[at[win]] = x[at[win]] > T(0) ? dy[o] : T(0);
                r.gradGrad[o] = g[at[win]];
            }
    return r;
}

template <class T> Tensor tensorOf(const Shape& shape, const std::vector<T>& v)
{
    Tensor t = Tensor::empty(shape, sizeof(T) == 4 ? DType::Float32 : DType::Float64);
    std::copy(v.begin(), v.end(), t.data<T>());
    return t;
}

template <class T> void checkBits(const char* op, const Tensor& got, const std::vector<T>& expected)
{
    REQUIRE(got.numel() == static_cast<std::int64_t>(expected.size()));
    const T* p = got.data<T>();
    std::size_t wrong = 0, first = 0;
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (std::bit_cast<Bits<T>>(p[i]) != std::bit_cast<Bits<T>>(expected[i]) && wrong++ == 0)
            first = i;
    INFO(op << ": " << wrong << " elements differ, the first at " << first << ": " << p[first] << " instead of "
            << expected[first]);
    CHECK(wrong == 0);
}

template <class T> void checkTiledKernels(std::int64_t h, std::int64_t w, unsigned seed)
{
    const std::int64_t n = 2, c = 3;
    const Shape in{n, c, h, w}, out{n, c, h / 2, w / 2};
    std::mt19937 rng(seed);
    const auto x = awkward<T>(static_cast<std::size_t>(in.numel()), rng);
    const auto dy = awkward<T>(static_cast<std::size_t>(out.numel()), rng);
    const auto g = awkward<T>(static_cast<std::size_t>(in.numel()), rng);
    const Expected<T> e = reference(x, dy, g, n * c, h, w);
    const Pool2dOptions o{{2, 2}, {2, 2}, "valid"};
    const Tensor xt = tensorOf(in, x), dyt = tensorOf(out, dy), gt = tensorOf(in, g);
    checkBits("MaxPool", maxPool2d(xt, o), e.y);
    checkBits("MaxPoolGrad", maxPoolGrad(xt, dyt, o), e.dx);
    checkBits("MaxPoolReluGrad", maxPoolReluGrad(xt, dyt, o), e.reluDx);
    checkBits("MaxPoolGradGrad", maxPoolGradGrad(xt, gt, o), e.gradGrad);
}
} // namespace

TEST_CASE("the tiled 2x2 max-pool kernels match the definition bit for bit with ties, -0.0, infinities and NaNs")
{
    // Odd sizes leave the last row or column in no window; long rows run the vector loops with
    // their remainders, LeNet5's sizes included.
    struct Size {
        std::int64_t h, w;
    };
    unsigned seed = 1;
    for (const Size s : {Size{2, 2}, Size{3, 5}, Size{7, 9}, Size{9, 7}, Size{8, 8}, Size{10, 10}, Size{28, 28},
                         Size{6, 37}, Size{5, 66}, Size{4, 130}}) {
        ++seed;
        DYNAMIC_SECTION("float32 " << s.h << "x" << s.w) { checkTiledKernels<float>(s.h, s.w, seed); }
        DYNAMIC_SECTION("float64 " << s.h << "x" << s.w) { checkTiledKernels<double>(s.h, s.w, seed); }
    }
}
