// Tests of the ops over saved col matrices (core/ops/nn/conv_cols_ops.h): they reproduce Conv2D
// and Conv2DBackpropFilter bit for bit, Col2Im is Im2Col's adjoint, and bad operands are errors
// that name the op. SPDX-License-Identifier: MIT
#include "ops/nn/conv_cols_ops.h"
#include "ops/nn/defs.h"
#include "ops/ops.h"
#include "tests/core/ops/gradcheck.h"

#include <catch2/catch.hpp>

#include <cstring>

using namespace gradstep;
using gradstep::testing::convOptions;
using gradstep::testing::sample;

namespace {

bool sameBits(const Tensor& a, const Tensor& b)
{
    return a.shape() == b.shape() && a.dtype() == b.dtype()
           && std::memcmp(a.rawData(), b.rawData(), static_cast<std::size_t>(a.nbytes())) == 0;
}

double dot(const Tensor& a, const Tensor& b)
{
    double sum = 0;
    for (std::int64_t i = 0; i < a.numel(); ++i)
        sum += a.at(i) * b.at(i);
    return sum;
}

} // namespace

TEST_CASE("the cols ops reproduce Conv2D and its filter gradient bit for bit")
{
    struct Case {
        const char* name;
        Shape x, w;
        Attrs attrs;
    };
    const std::vector<Case> cases{
        {"LeNet's first layer", {4, 1, 32, 32}, {6, 1, 5, 5}, convAttrs(convOptions({1, 1}, "valid", {0}, {1, 1}))},
        {"LeNet's second layer", {4, 6, 14, 14}, {16, 6, 5, 5}, convAttrs(convOptions({1, 1}, "valid", {0}, {1, 1}))},
        {"stride 2, padding (1, 0, 2, 1)", {2, 2, 5, 6}, {3, 2, 3, 2}, convAttrs(convOptions({2, 2}, "pad", {1, 0, 2, 1}, {1, 1}))},
        {"same padding, dilation 2", {2, 3, 7, 6}, {2, 3, 3, 2}, convAttrs(convOptions({1, 1}, "same", {0}, {2, 2}))},
    };
    for (const Case& c : cases)
        for (DType dtype : {DType::Float32, DType::Float64}) {
            DYNAMIC_SECTION(c.name << " " << dtypeName(dtype))
            {
                const Tensor x = cast(sample(c.x, -1, 1, 7), dtype), w = cast(sample(c.w, -1, 1, 8), dtype);
                const Tensor y = callOp1(kConv2D, {x, w}, c.attrs);
                const Tensor dy = cast(sample(y.shape(), -1, 1, 9), dtype);
                Attrs filterAttrs = c.attrs;
                filterAttrs.set("filter_size", c.w.toVector());
                const Tensor dw = callOp1(kConv2DBackpropFilter, {dy, x}, filterAttrs);

                const auto [y2, cols] = conv2dWithColsWithAttrs(x, w, c.attrs);
                CHECK(sameBits(y2, y));
                CHECK(sameBits(cols, im2colWithAttrs(x, c.w, c.attrs)));
                CHECK(sameBits(conv2dFromColsWithAttrs(cols, w, c.x, c.attrs), y));
                CHECK(sameBits(conv2dBackpropFilterFromColsWithAttrs(dy, cols, c.x, c.w, c.attrs), dw));
            }
        }
}

TEST_CASE("Col2Im is the adjoint of Im2Col")
{
    const Attrs attrs = convAttrs(convOptions({2, 1}, "pad", {1, 2, 0, 1}, {1, 2}));
    const Shape xShape{2, 3, 6, 5}, wShape{4, 3, 3, 2};
    const Tensor x = sample(xShape, -1, 1, 11);
    const Tensor cols = im2colWithAttrs(x, wShape, attrs);
    // H: (6 + 3 - 3) / 2 + 1 = 4; W: 5 + 1 - 3 + 1 = 4 (kernel extent 3 with dilation 2).
    REQUIRE(cols.shape() == Shape{2, 18, 16});
    const Tensor c = sample(cols.shape(), -1, 1, 12);
    const Tensor back = col2imWithAttrs(c, xShape, wShape, attrs);
    REQUIRE(back.shape() == xShape);
    CHECK(dot(cols, c) == Approx(dot(x, back)).epsilon(1e-12));
}

TEST_CASE("the cols ops reject grouped convolutions and col matrices of the wrong shape")
{
    Attrs grouped = convAttrs(convOptions({1, 1}, "valid", {0}, {1, 1}));
    grouped.set("group", std::int64_t{2});
    CHECK_THROWS_WITH(im2colWithAttrs(Tensor::zeros({1, 4, 5, 5}), Shape{2, 2, 3, 3}, grouped),
                      Catch::Contains("Im2Col") && Catch::Contains("group 1 only, got group 2"));
    const Attrs valid = convAttrs(convOptions({1, 1}, "valid", {0}, {1, 1}));
    CHECK_THROWS_AS(conv2dFromColsWithAttrs(Tensor::zeros({1, 9, 8}), Tensor::zeros({2, 1, 3, 3}), {1, 1, 5, 5}, valid),
                    ShapeError);
    CHECK_THROWS_WITH(conv2dFromColsWithAttrs(Tensor::zeros({1, 9, 8}), Tensor::zeros({2, 1, 3, 3}), {1, 1, 5, 5}, valid),
                      Catch::Contains("Conv2DFromCols") && Catch::Contains("[1, 9, 9]"));
    CHECK_THROWS_AS(conv2dBackpropFilterFromColsWithAttrs(Tensor::zeros({1, 2, 2, 3}), Tensor::zeros({1, 9, 9}),
                                                          {1, 1, 5, 5}, {2, 1, 3, 3}, valid),
                    ShapeError);
}
