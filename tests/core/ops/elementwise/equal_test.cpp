// Tests of equal (core/ops/elementwise/equal.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"
#include "ops/registry.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("equal compares elementwise with broadcasting into a Bool tensor", "[elementwise]")
{
    const Tensor y = equal(f32({2, 3}, {1, 2, 3, 1, -0.0f, INFINITY}), f32({3}, {2, 2, 2}));
    CHECK(y.shape() == Shape{2, 3});
    CHECK(y.dtype() == DType::Bool);
    checkValues(y, {0, 1, 0, 0, 0, 0});
    checkValues(equal(Tensor::scalar(-0.0), Tensor::scalar(0.0)), {1});
}

TEST_CASE("equal with NaN follows IEEE", "[elementwise]")
{
    checkValues(equal(f32({3}, {NAN, 1, NAN}), f32({3}, {1, NAN, NAN})), {0, 0, 0});
}

TEST_CASE("equal compares integers, mixed dtypes in their promoted dtype, and Bools",
          "[elementwise]")
{
    checkValues(equal(i32({3}, {-3, 0, 5}), i64({}, {0})), {0, 1, 0});
    checkValues(equal(i32({2}, {1, 2}), f32({}, {1.5f})), {0, 0});
    checkValues(equal(boolean({3}, {true, false, false}), boolean({3}, {false, false, true})),
                {0, 1, 0});
}

TEST_CASE("equal rejects shapes that do not broadcast", "[elementwise]")
{
    const std::string msg = messageOf<ShapeError>([] {
        equal(Tensor::zeros({2, 3}), Tensor::zeros({4}));
    });
    CHECK_THAT(msg,
               Catch::Contains("Equal") && Catch::Contains("[2, 3]") && Catch::Contains("[4]"));
}

TEST_CASE("equal is registered without a backward rule and stops gradients", "[elementwise]")
{
    const OpDef* op = OpRegistry::instance().find("Equal");
    REQUIRE(op != nullptr);
    CHECK_FALSE(op->differentiable());
    // d/dx sum(x * equal(x, 2)) is the mask itself: nothing flows through the comparison.
    const Tensor x = f32({3}, {1, 2, 3});
    const Tensor mask = cast(equal(x, Tensor::scalar(2.0)), DType::Float32);
    checkValues(
        gradOfSum(
            [](const Tensor& t) { return t * cast(equal(t, Tensor::scalar(2.0)), DType::Float32); },
            x),
        mask.toDoubles());
}
