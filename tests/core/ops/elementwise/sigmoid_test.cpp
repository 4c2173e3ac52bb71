// Tests of sigmoid (core/ops/elementwise/sigmoid.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("sigmoid of known values, with no overflow for large inputs", "[elementwise]")
{
    checkValues(sigmoid(f64({3}, {0, 2, -2})),
                {0.5, 1 / (1 + std::exp(-2.0)), 1 / (1 + std::exp(2.0))});
    checkValues(sigmoid(f32({5}, {100, -100, INFINITY, -INFINITY, NAN})), {1, 0, 1, 0, kNaN});
    CHECK(sigmoid(f64({1}, {-100})).at(0) == Approx(3.7200759760208356e-44));
    CHECK_THAT(messageOf<DTypeError>([] { sigmoid(i32({1}, {0})); }), Catch::Contains("'Sigmoid'"));
}

TEST_CASE("the gradient of sigmoid is y (1 - y)", "[elementwise]")
{
    const Tensor x = f64({3}, {0, 2, 100});
    const double s2 = 1 / (1 + std::exp(-2.0));
    checkValues(gradOfSum([](const Tensor& t) { return sigmoid(t); }, x), {0.25, s2 * (1 - s2), 0});
    // Second derivative y (1 - y) (1 - 2y), 0 at x = 0.
    auto d1 = [](const Tensor& t) {
        return gradOfSum([](const Tensor& u) { return sigmoid(u); }, t);
    };
    checkValues(gradOfSum(d1, f64({2}, {0, 2})), {0, s2 * (1 - s2) * (1 - 2 * s2)});
}

TEST_CASE("sigmoid agrees with 1 / (1 + e^-x) over both tails, in float32 and float64", "[elementwise]")
{
    // -100 .. 100: float32 outputs below its normal range (x < -87) stay denormal numbers, not 0.
    std::vector<double> xs;
    for (int i = 0; i <= 2001; ++i)
        xs.push_back(-100.0 + 0.1 * i);
    const std::vector<float> xf(xs.begin(), xs.end());
    const auto n = static_cast<std::int64_t>(xs.size());
    const Tensor y32 = sigmoid(f32({n}, xf));
    const Tensor y64 = sigmoid(f64({n}, xs));
    for (std::int64_t i = 0; i < n; ++i) {
        const auto k = static_cast<std::size_t>(i);
        INFO("x = " << xs[k]);
        CHECK(y32.at(i) == Approx(1 / (1 + std::exp(-double(xf[k])))).epsilon(1e-6).margin(1e-44));
        CHECK(y64.at(i) == Approx(1 / (1 + std::exp(-xs[k]))).epsilon(1e-14));
    }
    CHECK(sigmoid(f32({1}, {-90.0f})).at(0) > 0);
}
