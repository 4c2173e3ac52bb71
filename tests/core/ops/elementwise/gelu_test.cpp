// Tests of gelu (core/ops/elementwise/gelu.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

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
