// Tests of the six comparisons, one table row each (core/ops/elementwise/equal.cpp,
// not_equal.cpp, greater.cpp, greater_equal.cpp, less.cpp, less_equal.cpp).
// SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"
#include "ops/registry.h"

#include <array>
#include <vector>

using namespace gradstep;
using namespace gradstep::testing;

namespace {
using CompareFn = Tensor (*)(const Tensor&, const Tensor&);

struct Comparison {
    const char* primitive;
    CompareFn fn;
    std::vector<double> broadcast; ///< [1, 2, 3, 1, -0, inf] against [2, 2, 2]
    std::vector<double> signedZero; ///< -0 against 0
    std::vector<double> nan;       ///< [NaN, 1, NaN] against [1, NaN, NaN]
    std::vector<double> ints;      ///< Int32 [-3, 0, 5] against Int64 0
    std::vector<double> mixed;     ///< Int32 [1, 2] against Float32 1.5
    std::vector<double> bools;     ///< [true, false, false] against [false, false, true]
};

const std::array<Comparison, 6> kComparisons{{
    {"Equal", [](const Tensor& a, const Tensor& b) { return equal(a, b); },
     {0, 1, 0, 0, 0, 0}, {1}, {0, 0, 0}, {0, 1, 0}, {0, 0}, {0, 1, 0}},
    {"NotEqual", [](const Tensor& a, const Tensor& b) { return notEqual(a, b); },
     {1, 0, 1, 1, 1, 1}, {0}, {1, 1, 1}, {1, 0, 1}, {1, 1}, {1, 0, 1}},
    {"Greater", [](const Tensor& a, const Tensor& b) { return greater(a, b); },
     {0, 0, 1, 0, 0, 1}, {0}, {0, 0, 0}, {0, 0, 1}, {0, 1}, {1, 0, 0}},
    {"GreaterEqual", [](const Tensor& a, const Tensor& b) { return greaterEqual(a, b); },
     {0, 1, 1, 0, 0, 1}, {1}, {0, 0, 0}, {0, 1, 1}, {0, 1}, {1, 1, 0}},
    {"Less", [](const Tensor& a, const Tensor& b) { return less(a, b); },
     {1, 0, 0, 1, 1, 0}, {0}, {0, 0, 0}, {1, 0, 0}, {1, 0}, {0, 0, 1}},
    {"LessEqual", [](const Tensor& a, const Tensor& b) { return lessEqual(a, b); },
     {1, 1, 0, 1, 1, 0}, {1}, {0, 0, 0}, {1, 1, 0}, {1, 0}, {0, 1, 1}},
}};
} // namespace

TEST_CASE("comparisons compare elementwise with broadcasting into a Bool tensor", "[elementwise]")
{
    for (const Comparison& c : kComparisons) {
        INFO(c.primitive);
        const Tensor y = c.fn(f32({2, 3}, {1, 2, 3, 1, -0.0f, INFINITY}), f32({3}, {2, 2, 2}));
        CHECK(y.shape() == Shape{2, 3});
        CHECK(y.dtype() == DType::Bool);
        checkValues(y, c.broadcast);
        checkValues(c.fn(Tensor::scalar(-0.0), Tensor::scalar(0.0)), c.signedZero);
    }
}

TEST_CASE("comparisons with NaN follow IEEE", "[elementwise]")
{
    for (const Comparison& c : kComparisons) {
        INFO(c.primitive);
        checkValues(c.fn(f32({3}, {NAN, 1, NAN}), f32({3}, {1, NAN, NAN})), c.nan);
    }
}

TEST_CASE("comparisons compare integers, mixed dtypes in their promoted dtype, and Bools",
          "[elementwise]")
{
    for (const Comparison& c : kComparisons) {
        INFO(c.primitive);
        checkValues(c.fn(i32({3}, {-3, 0, 5}), i64({}, {0})), c.ints);
        checkValues(c.fn(i32({2}, {1, 2}), f32({}, {1.5f})), c.mixed);
        checkValues(c.fn(boolean({3}, {true, false, false}), boolean({3}, {false, false, true})),
                    c.bools);
    }
}

TEST_CASE("comparisons reject shapes that do not broadcast", "[elementwise]")
{
    for (const Comparison& c : kComparisons) {
        INFO(c.primitive);
        const std::string msg = messageOf<ShapeError>([&] {
            c.fn(Tensor::zeros({2, 3}), Tensor::zeros({4}));
        });
        CHECK_THAT(msg, Catch::Contains(c.primitive) && Catch::Contains("[2, 3]")
                            && Catch::Contains("[4]"));
    }
}

TEST_CASE("comparisons are registered without a backward rule and stop gradients",
          "[elementwise]")
{
    for (const Comparison& c : kComparisons) {
        INFO(c.primitive);
        const OpDef* op = OpRegistry::instance().find(c.primitive);
        REQUIRE(op != nullptr);
        CHECK_FALSE(op->differentiable());
        // d/dx sum(x * compare(x, 2)) is the mask itself: nothing flows through the comparison.
        const Tensor x = f32({3}, {1, 2, 3});
        const Tensor mask = cast(c.fn(x, Tensor::scalar(2.0)), DType::Float32);
        checkValues(gradOfSum(
                        [&](const Tensor& t) {
                            return t * cast(c.fn(t, Tensor::scalar(2.0)), DType::Float32);
                        },
                        x),
                    mask.toDoubles());
    }
}
