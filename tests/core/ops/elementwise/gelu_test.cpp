// Tests of gelu (core/ops/elementwise/gelu.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"
#include "ops/gelu_grad_ops.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("gelu defaults to the tanh approximation", "[elementwise]")
{
    checkValues(gelu(f64({3}, {0, 1, -1})), {0, 0.8411919906082768, -0.15880800939172324});
    checkValues(gelu(f32({4}, {INFINITY, -INFINITY, -30, NAN})), {kInf, 0, 0, kNaN});
    CHECK_THAT(messageOf<DTypeError>([] { gelu(i32({1}, {0})); }), Catch::Contains("'GeLU'"));
}

TEST_CASE("gelu with approximate = false is x Phi(x)", "[elementwise]")
{
    checkValues(gelu(f64({3}, {0, 1, -1}), false), {0, 0.8413447460685429, -0.15865525393145707});
    checkValues(gelu(f32({4}, {INFINITY, -INFINITY, -30, NAN}), false), {kInf, 0, 0, kNaN});
}

TEST_CASE("the gradient of gelu in both forms", "[elementwise]")
{
    const Tensor x = f64({2}, {0, 1});
    checkValues(gradOfSum([](const Tensor& t) { return gelu(t); }, x), {0.5, 1.0829640838457826});
    checkValues(gradOfSum([](const Tensor& t) { return gelu(t, false); }, x),
                {0.5, 1.0833154705876864});
}

TEST_CASE("float32 gelu's tanh form (vectorised tanh) agrees with the float64 one", "[elementwise]")
{
    std::vector<float> xs;
    for (int i = 0; i <= 2001; ++i)
        xs.push_back(-10.0f + 0.01f * static_cast<float>(i));
    const std::vector<double> xd(xs.begin(), xs.end());
    const auto n = static_cast<std::int64_t>(xs.size());
    const Tensor y32 = gelu(f32({n}, xs));
    const Tensor y64 = gelu(f64({n}, xd));
    for (std::int64_t i = 0; i < n; ++i) {
        INFO("x = " << xs[static_cast<std::size_t>(i)]);
        // Absolute margin: for x < 0, 1 + tanh(u) cancels in float32 whichever tanh computes it.
        CHECK(y32.at(i) == Approx(y64.at(i)).epsilon(1e-6).margin(2e-6));
    }
}

TEST_CASE("GeLUGrad gives the slope's limits at the infinities and agrees in float32 and float64", "[elementwise]")
{
    // gelu'(+inf) = 1, gelu'(-inf) = 0; beyond |x| ~ 9 the tanh is exactly 1 and x^2 overflows
    // at 1e20: the slope is still the limit, not inf * 0.
    const std::vector<double> edge{INFINITY, -INFINITY, 1e20, -1e20, NAN};
    for (bool approximate : {true, false}) {
        INFO("approximate " << approximate);
        checkValues(geluGrad(f32({5}, std::vector<float>(5, 2.0f)), f32({5}, {INFINITY, -INFINITY, 1e20f, -1e20f, NAN}),
                             approximate),
                    {2, 0, 2, 0, kNaN});
        checkValues(geluGrad(f64({5}, std::vector<double>(5, 2.0)), f64({5}, edge), approximate), {2, 0, 2, 0, kNaN});
    }
    std::vector<float> xs, dys;
    for (int i = 0; i <= 2001; ++i) {
        xs.push_back(-10.0f + 0.01f * static_cast<float>(i));
        dys.push_back(0.5f + 0.001f * static_cast<float>(i));
    }
    const auto n = static_cast<std::int64_t>(xs.size());
    const Tensor g32 = geluGrad(f32({n}, dys), f32({n}, xs), true);
    const Tensor g64 = geluGrad(f64({n}, std::vector<double>(dys.begin(), dys.end())),
                                f64({n}, std::vector<double>(xs.begin(), xs.end())), true);
    for (std::int64_t i = 0; i < n; ++i) {
        INFO("x = " << xs[static_cast<std::size_t>(i)]);
        CHECK(g32.at(i) == Approx(g64.at(i)).epsilon(1e-5).margin(1e-5));
    }
}

TEST_CASE("gelu's second derivative through GeLUGrad matches its closed form", "[elementwise]")
{
    // d/dx of gelu'(x) at x = 1: erf form phi(1) (2 - 1) = 0.24197...; tanh form 0.242148...
    // (central differences of the slope's formula in float64, h = 1e-5).
    const Tensor x = f64({1}, {1.0});
    const auto second = [&](bool approximate) {
        return gradOfSum([approximate](const Tensor& t) { return geluGrad(onesLike(t), t, approximate); }, x);
    };
    checkValues(second(false), {0.24197072451914337});
    CHECK(second(true).at(0) == Approx(0.24214819798196172).epsilon(1e-9));
}

TEST_CASE("GeLUGrad's gradients take each input's shape and dtype (a fuzz find: float16 dy, float32 x)",
          "[elementwise]")
{
    // dy float16 of shape [2, 1] broadcast against x float32 [2, 3]: the output is float32 [2, 3],
    // and the gradient for dy is summed over the broadcast axis and cast back to float16.
    const Tensor dy = cast(f32({2, 1}, {1.0f, 2.0f}), DType::Float16);
    const Tensor x = f32({2, 3}, {0.0f, 1.0f, -1.0f, 0.5f, 2.0f, -2.0f});
    const TensorList g = gradsOfSum([](const TensorList& v) { return geluGrad(v[0], v[1], true); }, {dy, x});
    REQUIRE(g[0].dtype() == DType::Float16);
    REQUIRE(g[0].shape() == Shape({2, 1}));
    REQUIRE(g[1].dtype() == DType::Float32);
    const Tensor slopes = geluGrad(onesLike(x), x, true);
    CHECK(cast(g[0], DType::Float32).at(0) == Approx(slopes.at(0) + slopes.at(1) + slopes.at(2)).epsilon(1e-3));
}
