// Tests of tanh (core/ops/elementwise/tanh.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("tanh of known values and its limits", "[elementwise]")
{
    checkValues(tanh(f64({3}, {0, 1, -1})), {0, 0.7615941559557649, -0.7615941559557649});
    checkValues(tanh(f32({4}, {INFINITY, -INFINITY, 50, NAN})), {1, -1, 1, kNaN});
    CHECK_THAT(messageOf<DTypeError>([] { tanh(i32({1}, {0})); }), Catch::Contains("'Tanh'"));
}

TEST_CASE("the gradient of tanh is 1 - y^2, and its second derivative -2 y (1 - y^2)",
          "[elementwise]")
{
    const double t1 = std::tanh(1.0);
    checkValues(gradOfSum([](const Tensor& t) { return tanh(t); }, f64({3}, {0, 1, INFINITY})),
                {1, 1 - t1 * t1, 0});
    auto d1 = [](const Tensor& t) { return gradOfSum([](const Tensor& u) { return tanh(u); }, t); };
    checkValues(gradOfSum(d1, f64({2}, {0, 1})), {0, -2 * t1 * (1 - t1 * t1)});
}

TEST_CASE("float32 tanh (Eigen's vectorised form) agrees with float64 tanh to float32 precision",
          "[elementwise]")
{
    // An odd count, so the loop's scalar tail runs as well as its vector body.
    std::vector<float> xs = {-0.0f, 1e-30f, -3e-4f, 9.5f, -20.0f};
    for (int i = 0; i <= 2000; ++i)
        xs.push_back(-12.0f + 0.012f * static_cast<float>(i));
    const Tensor y = tanh(f32({static_cast<std::int64_t>(xs.size())}, xs));
    for (std::size_t i = 0; i < xs.size(); ++i) {
        INFO("x = " << xs[i]);
        CHECK(y.at(static_cast<std::int64_t>(i)) == Approx(std::tanh(double(xs[i]))).epsilon(1e-6).margin(1e-30));
    }
}
