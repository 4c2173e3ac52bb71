// Tests of clip_by_value (core/ops/elementwise/clip_by_value.cpp). SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

TEST_CASE("clip_by_value clamps between min and max with broadcasting", "[elementwise]")
{
    const Tensor y = clipByValue(f32({2, 3}, {-5, 0.5f, 9, 1, -1, 2}), f32({3}, {-1, 0, 1}),
                                 f32({2, 1}, {2, 1.5f}));
    CHECK(y.shape() == Shape{2, 3});
    checkValues(y, {-1, 0.5, 2, 1, 0, 1.5});
    checkValues(
        clipByValue(f32({3}, {-INFINITY, INFINITY, NAN}), Tensor::scalar(0.0), Tensor::scalar(1.0)),
        {0, 1, kNaN});
}

TEST_CASE("clip_by_value with min > max gives max everywhere", "[elementwise]")
{
    checkValues(clipByValue(f32({3}, {-3, 0, 3}), Tensor::scalar(1.0), Tensor::scalar(-1.0)),
                {-1, -1, -1});
}

TEST_CASE("clip_by_value works on integers", "[elementwise]")
{
    const Tensor y = clipByValue(i32({4}, {-7, 0, 3, 12}), i32({}, {-2}), i32({}, {5}));
    CHECK(y.dtype() == DType::Int32);
    checkValues(y, {-2, 0, 3, 5});
    CHECK_THROWS_AS(clipByValue(boolean({1}, {true}), boolean({}, {false}), boolean({}, {true})),
                    DTypeError);
}

TEST_CASE("clip_by_value rejects shapes that do not broadcast, naming all three", "[elementwise]")
{
    const std::string msg = messageOf<ShapeError>([] {
        clipByValue(Tensor::zeros({2, 3}), Tensor::zeros({4}), Tensor::scalar(1.0));
    });
    CHECK_THAT(msg, Catch::Contains("'ClipByValue'") && Catch::Contains("[2, 3]")
                        && Catch::Contains("[4]"));
}

TEST_CASE("the gradient of clip_by_value goes to x inside, to the bound that clips outside",
          "[elementwise]")
{
    // x: below, at min, inside, at max, above.
    const TensorList g =
        gradsOfSum([](const TensorList& x) { return clipByValue(x[0], x[1], x[2]); },
                   {f64({5}, {-3, -1, 0.5, 2, 4}), Tensor::scalar(-1.0, DType::Float64),
                    Tensor::scalar(2.0, DType::Float64)});
    checkValues(g[0], {0, 1, 1, 1, 0});
    checkValues(g[1], {1});
    checkValues(g[2], {1});
}

TEST_CASE("the gradient of clip_by_value with min > max goes to max", "[elementwise]")
{
    const TensorList g =
        gradsOfSum([](const TensorList& x) { return clipByValue(x[0], x[1], x[2]); },
                   {f64({3}, {-3, 0, 3}), f64({3}, {1, 1, 1}), f64({3}, {-1, -1, -1})});
    checkValues(g[0], {0, 0, 0});
    checkValues(g[1], {0, 0, 0});
    checkValues(g[2], {1, 1, 1});
}

// Found by tests/fuzz: the forward promotes Bool x and min with a float max, but the backward
// compared x and min in Bool and maximum threw DTypeError.
TEST_CASE("the gradient of clip_by_value with Bool x and min and a float max", "[elementwise]")
{
    const Tensor x = Tensor::fromVector<bool>({3}, {false, true, true});
    const Tensor lo = Tensor::fromVector<bool>({3}, {true, false, true});
    const Function fn = [&](const std::vector<Value>& in) -> Value {
        return reduceSum(clipByValue(x, lo, in[0].tensor()));
    };
    checkValues(grad(fn)({f64({3}, {0.5, 2, 0.5})}).tensor(), {1, 0, 1});
}
