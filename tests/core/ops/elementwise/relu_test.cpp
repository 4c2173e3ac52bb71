// Tests of relu (core/ops/elementwise/relu.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("relu clamps negatives to 0 and keeps NaN", "[elementwise]")
{
    const Tensor y = relu(f32({6}, {-1, -0.0f, 0, 2.5f, INFINITY, NAN}));
    checkValues(y, {0, 0, 0, 2.5, kInf, kNaN});
    CHECK_FALSE(std::signbit(y.at(1)));
    const Tensor yi = relu(i32({3}, {-3, 0, 4}));
    CHECK(yi.dtype() == DType::Int32);
    checkValues(yi, {0, 0, 4});
    CHECK_THAT(messageOf<DTypeError>([] { relu(boolean({1}, {true})); }),
               Catch::Contains("'ReLU'"));
}

TEST_CASE("the gradient of relu is 1 for x > 0 and 0 elsewhere, the kink included", "[elementwise]")
{
    checkValues(gradOfSum([](const Tensor& t) { return relu(t); }, f32({4}, {-1, 0, 2, NAN})),
                {0, 0, 1, 0});
}

TEST_CASE("relu routes an infinite incoming gradient without making NaN", "[elementwise]")
{
    // d/dx sum(relu(x) * inf): where relu is flat the masked gradient stays 0, not 0 * inf.
    const Tensor g = gradOfSum(
        [](const Tensor& t) {
            return relu(t) * f32({2}, {INFINITY, INFINITY});
        },
        f32({2}, {-1, 1}));
    checkValues(g, {0, kInf});
}
