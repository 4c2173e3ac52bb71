// Tests of pow (core/ops/elementwise/pow.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("pow raises elementwise with broadcasting", "[elementwise]")
{
    const Tensor y = pow(f32({2, 2}, {2, 4, 9, 0}), f32({2}, {3, 0.5f}));
    CHECK(y.shape() == Shape{2, 2});
    checkValues(y, {8, 2, 729, 0});
    checkValues(pow(f32({3}, {0, 2, -2}), Tensor::scalar(0.0)), {1, 1, 1});
    checkValues(pow(f32({2}, {2, 0}), Tensor::scalar(-1.0)), {0.5, kInf});
}

TEST_CASE("pow of a negative base to a fractional power is NaN", "[elementwise]")
{
    checkValues(pow(f32({2}, {-8, NAN}), Tensor::scalar(1.0 / 3)), {kNaN, kNaN});
    checkValues(pow(f32({1}, {-2}), Tensor::scalar(3.0)), {-8});
}

TEST_CASE("pow promotes an integer operand to the float one", "[elementwise]")
{
    const Tensor y = pow(i32({2}, {2, 3}), f32({1}, {2}));
    CHECK(y.dtype() == DType::Float32);
    checkValues(y, {4, 9});
}

TEST_CASE("pow of integers is an exact integer that wraps on overflow", "[elementwise]")
{
    const Tensor y = pow(i32({6}, {2, 3, -2, 5, -1, 1}), i32({6}, {10, 0, 3, -1, -3, -5}));
    CHECK(y.dtype() == DType::Int32);
    checkValues(y, {1024, 1, -8, 0, -1, 1});
    const Tensor big = pow(i64({1}, {3}), i64({1}, {39}));
    CHECK(big.dtype() == DType::Int64);
    CHECK(static_cast<const std::int64_t*>(big.rawData())[0] == 4052555153018976267LL);
    checkValues(pow(i32({1}, {2}), i32({1}, {31})), {-2147483648.0});
}

TEST_CASE("pow rejects two bool operands", "[elementwise]")
{
    CHECK_THAT(messageOf<DTypeError>([] { pow(boolean({1}, {true}), boolean({1}, {false})); }),
               Catch::Contains("'Pow'"));
    const Tensor y = pow(boolean({2}, {true, false}), i32({1}, {2}));
    CHECK(y.dtype() == DType::Int32);
    checkValues(y, {1, 0});
}

TEST_CASE("the gradient of pow is e b^(e-1) for the base and log(b) b^e for the exponent",
          "[elementwise]")
{
    const TensorList g = gradsOfSum([](const TensorList& x) { return pow(x[0], x[1]); },
                                    {f64({1}, {2}), f64({1}, {3})});
    checkValues(g[0], {12});
    checkValues(g[1], {std::log(2.0) * 8});
}

TEST_CASE("pow with a constant exponent has gradient 0 at base 0", "[elementwise]")
{
    const Tensor g =
        gradOfSum([](const Tensor& x) { return pow(x, Tensor::scalar(2.0, DType::Float64)); },
                  f64({3}, {0, -1.5, 2}));
    checkValues(g, {0, -3, 4});
}

TEST_CASE("the exponent gradient of pow at base 0 is NaN, as IEEE gives", "[elementwise]")
{
    const TensorList g = gradsOfSum([](const TensorList& x) { return pow(x[0], x[1]); },
                                    {f64({1}, {0}), f64({1}, {2})});
    checkValues(g[0], {0});
    checkValues(g[1], {kNaN});
}

// The op fuzzer's find (corpus seed integer-pow-exponent-gradient): an integer power's exponent
// gradient took log of an integer base in y's integer dtype, which Log refuses.
TEST_CASE("an integer power differentiates in both operands, the exponent's log taken in float",
          "[elementwise]")
{
    const TensorList g = gradsOfSum([](const TensorList& x) { return pow(x[0], x[1]); },
                                    {i32({2}, {2, 3}), i32({2}, {3, 2})});
    CHECK(g[0].dtype() == DType::Int32);
    checkValues(g[0], {12, 6});  // e b^(e-1)
    CHECK(g[1].dtype() == DType::Int32);
    checkValues(g[1], {std::trunc(std::log(2.0) * 8), std::trunc(std::log(3.0) * 9)});  // log(b) b^e
}
