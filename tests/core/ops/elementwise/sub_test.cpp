// Tests of sub (core/ops/elementwise/sub.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("sub subtracts elementwise with broadcasting", "[elementwise]")
{
    const Tensor y = sub(f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3}, {1, 1, 2}));
    CHECK(y.shape() == Shape{2, 3});
    CHECK(y.dtype() == DType::Float32);
    checkValues(y, {0, 1, 1, 3, 4, 4});
    checkValues(10.0 - f32({2}, {1, 4}), {9, 6});
    checkValues(f32({2}, {1, 4}) - 0.5, {0.5, 3.5});
}

TEST_CASE("sub follows IEEE for infinities and NaN", "[elementwise]")
{
    checkValues(sub(f32({3}, {INFINITY, 1, NAN}), f32({3}, {INFINITY, -INFINITY, 1})),
                {kNaN, kInf, kNaN});
}

TEST_CASE("sub keeps integers integer and wraps around on overflow", "[elementwise]")
{
    const std::int32_t lowest = std::numeric_limits<std::int32_t>::min();
    const Tensor y = sub(i32({3}, {5, -2, lowest}), i32({1}, {1}));
    CHECK(y.dtype() == DType::Int32);
    checkValues(y, {4, -3, std::numeric_limits<std::int32_t>::max()});
    CHECK(sub(i32({1}, {3}), f32({1}, {0.5f})).dtype() == DType::Float32);
    CHECK(sub(i32({1}, {3}), i64({1}, {1})).dtype() == DType::Int64);
}

TEST_CASE("sub of a 0-D tensor and of an empty tensor", "[elementwise]")
{
    const Tensor s = sub(Tensor::scalar(5.0), Tensor::scalar(2.0));
    CHECK(s.rank() == 0);
    CHECK(s.item() == 3.0);
    const Tensor e = sub(Tensor::zeros({0, 3}), f32({3}, {1, 2, 3}));
    CHECK(e.shape() == Shape{0, 3});
}

TEST_CASE("sub rejects mismatched shapes and two Bool inputs", "[elementwise]")
{
    const std::string msg = messageOf<ShapeError>([] {
        sub(Tensor::zeros({2, 3}), Tensor::zeros({4}));
    });
    CHECK_THAT(msg, Catch::Contains("Sub") && Catch::Contains("[2, 3]") && Catch::Contains("[4]"));
    CHECK_THAT(messageOf<DTypeError>([] { sub(boolean({1}, {true}), boolean({1}, {false})); }),
               Catch::Contains("'Sub'"));
}

TEST_CASE("the gradient of sub is 1 and -1, summed over broadcast axes", "[elementwise]")
{
    const TensorList g = gradsOfSum([](const TensorList& x) { return sub(x[0], x[1]); },
                                    {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3}, {1, 1, 1})});
    checkValues(g[0], {1, 1, 1, 1, 1, 1});
    checkValues(g[1], {-2, -2, -2});
}
