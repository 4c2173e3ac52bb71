// Tests of square (core/ops/elementwise/square.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("square of floats and integers", "[elementwise]")
{
    checkValues(square(f32({4}, {-3, 0.5f, -INFINITY, NAN})), {9, 0.25, kInf, kNaN});
    checkValues(square(f32({1}, {1e20f})), {kInf});
    const Tensor y = square(i32({3}, {-4, 0, 46341}));
    CHECK(y.dtype() == DType::Int32);
    // 46341^2 = 2147488281 wraps to 2147488281 - 2^32.
    checkValues(y, {16, 0, 2147488281.0 - 4294967296.0});
    CHECK_THROWS_AS(square(boolean({1}, {true})), DTypeError);
}

TEST_CASE("the gradient of square is 2x and its second derivative 2", "[elementwise]")
{
    const Tensor x = f64({3}, {-1.5, 0, 2});
    auto d1 = [](const Tensor& t) {
        return gradOfSum([](const Tensor& u) { return square(u); }, t);
    };
    checkValues(d1(x), {-3, 0, 4});
    checkValues(gradOfSum(d1, x), {2, 2, 2});
}
