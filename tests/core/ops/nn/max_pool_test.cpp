// Tests of MaxPool, MaxPoolGrad and MaxPoolGradGrad (core/ops/nn/max_pool*.cpp).
// SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

using namespace gradstep;

namespace {
Pool2dOptions pool(std::int64_t kernel, std::int64_t stride, std::string mode = "valid")
{
    Pool2dOptions o;
    o.kernel = {kernel, kernel};
    o.stride = {stride, stride};
    o.padMode = std::move(mode);
    return o;
}

Tensor arange(const Shape& shape)
{
    std::vector<double> v(static_cast<std::size_t>(shape.numel()));
    std::iota(v.begin(), v.end(), 0.0);
    return Tensor::fromDoubles(shape, v);
}
} // namespace

TEST_CASE("max_pool2d with kernel 3 and stride 1 maps (1, 2, 4, 4) to (1, 2, 2, 2) (SEMANTICS 7.4)")
{
    const Tensor y = maxPool2d(arange({1, 2, 4, 4}), pool(3, 1));
    CHECK(y.shape() == Shape{1, 2, 2, 2});
    CHECK(y.toDoubles() == std::vector<double>{10, 11, 14, 15, 26, 27, 30, 31});
}

TEST_CASE("max_pool2d 'same' clips the last windows to the image")
{
    // 5 columns, kernel 2, stride 2: ceil(5/2) = 3 windows, the last one reads column 4 only.
    const Tensor y = maxPool2d(arange({1, 1, 5, 5}), pool(2, 2, "same"));
    CHECK(y.shape() == Shape{1, 1, 3, 3});
    CHECK(y.toDoubles() == std::vector<double>{6, 8, 9, 16, 18, 19, 21, 23, 24});
    const Tensor negative = maxPool2d(Tensor::full({1, 1, 3, 3}, -5.0), pool(2, 2, "same"));
    CHECK(negative.toDoubles() == std::vector<double>(4, -5.0)); // padding is never a 0 candidate
}

TEST_CASE("max_pool2d ties send the whole gradient to the first maximum in row-major order")
{
    const Tensor x = Tensor::full({1, 1, 2, 2}, 3.0, DType::Float64);
    const Tensor dx = grad([](const std::vector<Value>& a) { return Value(maxPool2d(a[0].tensor(), pool(2, 2))); })(
                          {Value(x)})
                          .tensor();
    CHECK(dx.toDoubles() == std::vector<double>{1, 0, 0, 0});
    // Overlapping windows that share a maximum add their gradients there.
    const Tensor peak = Tensor::fromDoubles({1, 1, 3, 3}, {0, 0, 0, 0, 9, 0, 0, 0, 0}, DType::Float64);
    const Tensor routed = maxPoolGrad(peak, Tensor::full({1, 1, 2, 2}, 1.0, DType::Float64), pool(2, 1));
    CHECK(routed.toDoubles() == std::vector<double>{0, 0, 0, 0, 4, 0, 0, 0, 0});
    CHECK(maxPoolGradGrad(peak, cast(arange({1, 1, 3, 3}), DType::Float64), pool(2, 1)).toDoubles() == std::vector<double>(4, 4.0));
}

TEST_CASE("max_pool2d propagates NaN and routes its gradient to the NaN")
{
    Tensor x = arange({1, 1, 2, 2});
    x.data<float>()[2] = std::nanf("");
    CHECK(std::isnan(maxPool2d(x, pool(2, 2)).item()));
    CHECK(maxPoolGrad(x, Tensor::full({1, 1, 1, 1}, 1.0), pool(2, 2)).toDoubles() == std::vector<double>{0, 0, 1, 0});
}

TEST_CASE("max_pool2d errors name the op")
{
    CHECK_THROWS_AS(maxPool2d(Tensor::zeros({2, 4, 4}), pool(2, 2)), ShapeError);
    CHECK_THROWS_WITH(maxPool2d(Tensor::zeros({1, 1, 2, 2}), pool(3, 1)),
                      Catch::Contains("'MaxPool'") && Catch::Contains("larger than the input"));
    CHECK_THROWS_AS(maxPool2d(Tensor::zeros({1, 1, 4, 4}), pool(2, 2, "pad")), ValueError);
    CHECK_THROWS_AS(maxPool2d(Tensor::zeros({1, 1, 4, 4}), pool(0, 1)), ValueError);
    CHECK_THROWS_AS(maxPool2d(Tensor::zeros({1, 1, 4, 4}, DType::Int32), pool(2, 2)), DTypeError);
    CHECK_THROWS_WITH(maxPoolGrad(Tensor::zeros({1, 1, 4, 4}), Tensor::zeros({1, 1, 3, 3}), pool(2, 2)),
                      Catch::Contains("'MaxPoolGrad'") && Catch::Contains("expected [1, 1, 2, 2]"));
}

TEST_CASE("max_pool2d and its gradient match a direct window scan for many geometries")
{
    struct Geometry {
        std::int64_t h, w, k, s;
        const char* mode;
    };
    for (const Geometry& c : {Geometry{7, 6, 3, 2, "same"}, Geometry{5, 5, 2, 2, "same"}, Geometry{6, 7, 1, 3, "same"},
                              Geometry{8, 5, 4, 3, "same"}, Geometry{7, 6, 3, 2, "valid"}, Geometry{9, 9, 2, 1, "valid"},
                              Geometry{6, 8, 3, 3, "valid"}, Geometry{6, 8, 2, 2, "valid"},
                              Geometry{7, 5, 2, 2, "valid"}, Geometry{6, 6, 2, 2, "same"}}) {
        DYNAMIC_SECTION(c.h << "x" << c.w << " kernel " << c.k << " stride " << c.s << " " << c.mode)
        {
            // Few distinct values, so many windows hold ties.
            std::vector<double> v(static_cast<std::size_t>(2 * c.h * c.w));
            for (std::size_t i = 0; i < v.size(); ++i)
                v[i] = static_cast<double>((i * 7) % 5);
            const Tensor x = Tensor::fromDoubles({1, 2, c.h, c.w}, v, DType::Float64);
            const Pool2dOptions o = pool(c.k, c.s, c.mode);
            const Tensor y = maxPool2d(x, o);
            const std::int64_t oh = y.shape()[2], ow = y.shape()[3];
            const bool same = std::string(c.mode) == "same";
            const std::int64_t padTop = same ? std::max<std::int64_t>((oh - 1) * c.s + c.k - c.h, 0) / 2 : 0;
            const std::int64_t padLeft = same ? std::max<std::int64_t>((ow - 1) * c.s + c.k - c.w, 0) / 2 : 0;
            const Tensor dy = Tensor::full(y.shape(), 1.0, DType::Float64);
            std::vector<double> dx(v.size(), 0.0);
            for (std::int64_t p = 0; p < 2; ++p)
                for (std::int64_t i = 0; i < oh; ++i)
                    for (std::int64_t j = 0; j < ow; ++j) {
                        std::int64_t best = -1;
                        for (std::int64_t a = i * c.s - padTop; a < i * c.s - padTop + c.k; ++a)
                            for (std::int64_t b = j * c.s - padLeft; b < j * c.s - padLeft + c.k; ++b) {
                                if (a < 0 || a >= c.h || b < 0 || b >= c.w)
                                    continue;
                                const std::int64_t idx = (p * c.h + a) * c.w + b;
                                if (best < 0 || v[static_cast<std::size_t>(idx)] > v[static_cast<std::size_t>(best)])
                                    best = idx;
                            }
                        CHECK(y.at((p * oh + i) * ow + j) == v[static_cast<std::size_t>(best)]);
                        dx[static_cast<std::size_t>(best)] += 1.0;
                    }
            CHECK(maxPoolGrad(x, dy, o).toDoubles() == dx);
        }
    }
}

TEST_CASE("the tiled 2x2 max pool keeps the first NaN and the first tie, and writes uncovered dx as 0")
{
    // (1, 1, 3, 5): windows cover rows 0-1 and columns 0-3; row 2 and column 4 get no gradient.
    Tensor x = Tensor::fromDoubles({1, 1, 3, 5}, {1, 7, 2, 2, 9, 7, 0, 2, 2, 9, 9, 9, 9, 9, 9});
    x.data<float>()[6] = std::nanf("");
    x.data<float>()[1] = std::nanf("");
    const Pool2dOptions o = pool(2, 2);
    const Tensor y = maxPool2d(x, o);
    CHECK(std::isnan(y.at(0)));
    CHECK(y.at(1) == 2.0);
    const Tensor dx = maxPoolGrad(x, Tensor::fromDoubles({1, 1, 1, 2}, {3, 4}), o);
    CHECK(dx.toDoubles() == std::vector<double>{0, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    CHECK(maxPoolGradGrad(x, arange({1, 1, 3, 5}), o).toDoubles() == std::vector<double>{1, 2});
}
