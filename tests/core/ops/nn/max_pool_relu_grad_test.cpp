// Tests of MaxPoolReluGrad (core/ops/nn/max_pool_relu_grad.cpp): the same bits as
// ReluGrad(MaxPoolGrad(y, dy), y). SPDX-License-Identifier: MIT
#include "ops/ops.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

namespace {
Pool2dOptions pool(std::int64_t kernel, std::int64_t stride, std::string mode)
{
    Pool2dOptions o;
    o.kernel = {kernel, kernel};
    o.stride = {stride, stride};
    o.padMode = std::move(mode);
    return o;
}

// Values with ties, zeros, negative zeros, negatives, NaN and infinities, as a ReLU output would
// not have them all: the op must match the pair on any input.
Tensor awkward(const Shape& shape, DType dtype)
{
    static const double pattern[] = {0.0, -0.0, 3.0, -2.0, 3.0, NAN, 1.5, INFINITY, -INFINITY, 0.25, 2.0};
    std::vector<double> v(static_cast<std::size_t>(shape.numel()));
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = pattern[(i * 7 + i / 5) % std::size(pattern)];
    return Tensor::fromDoubles(shape, v, dtype);
}

void requireSameBits(const Tensor& a, const Tensor& b)
{
    REQUIRE(a.shape() == b.shape());
    REQUIRE(a.dtype() == b.dtype());
    for (std::int64_t i = 0; i < a.numel(); ++i) {
        const double x = a.at(i), y = b.at(i);
        INFO("element " << i << ": " << x << " vs " << y);
        CHECK((x == y || (std::isnan(x) && std::isnan(y))));
        CHECK(std::signbit(x) == std::signbit(y));
    }
}
} // namespace

TEST_CASE("max_pool_relu_grad equals relu_grad of max_pool_grad bit for bit on many geometries")
{
    struct Geometry {
        std::int64_t h, w, k, s;
        const char* mode;
    };
    for (DType dtype : {DType::Float32, DType::Float64})
        for (const Geometry& c : {Geometry{6, 8, 2, 2, "valid"}, Geometry{7, 5, 2, 2, "valid"},
                                  Geometry{7, 6, 3, 2, "same"}, Geometry{9, 9, 2, 1, "valid"},
                                  Geometry{6, 6, 2, 2, "same"}}) {
            DYNAMIC_SECTION(dtypeName(dtype) << " " << c.h << "x" << c.w << " kernel " << c.k << " stride " << c.s
                                             << " " << c.mode)
            {
                const Pool2dOptions o = pool(c.k, c.s, c.mode);
                const Tensor y = awkward({2, 3, c.h, c.w}, dtype);
                const Tensor pooled = maxPool2d(y, o);
                const Tensor dy = awkward(pooled.shape(), dtype);
                requireSameBits(maxPoolReluGrad(y, dy, o), reluGrad(maxPoolGrad(y, dy, o), y));
            }
        }
}

TEST_CASE("max_pool_relu_grad masks the routed gradient where the pooled value is not positive")
{
    // Windows (2x2): {1, 2, 5, 6} -> 6 wins, {-1, -3, -2, -4} -> -1 wins but is masked,
    // {0, 0, 0, 0} -> the first 0 wins and is masked.
    const Tensor y = Tensor::fromDoubles({1, 1, 2, 6}, {1, 2, -1, -3, 0, 0, 5, 6, -2, -4, 0, 0});
    const Tensor dy = Tensor::fromDoubles({1, 1, 1, 3}, {10, 20, 30});
    CHECK(maxPoolReluGrad(y, dy, pool(2, 2, "valid")).toDoubles()
          == std::vector<double>{0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0});
}

TEST_CASE("max_pool_relu_grad errors name the op")
{
    const Tensor y = Tensor::zeros({1, 1, 4, 4}, DType::Float32);
    CHECK_THROWS_WITH(maxPoolReluGrad(y, Tensor::zeros({1, 1, 3, 3}, DType::Float32), pool(2, 2, "valid")),
                      Catch::Contains("MaxPoolReluGrad") && Catch::Contains("output gradient has shape"));
    CHECK_THROWS_AS(maxPoolReluGrad(Tensor::zeros({1, 1, 4, 4}, DType::Int32), Tensor::zeros({1, 1, 2, 2}, DType::Int32),
                                    pool(2, 2, "valid")),
                    DTypeError);
}
