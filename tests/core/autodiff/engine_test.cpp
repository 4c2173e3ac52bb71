// Tests of the backward engine (core/autodiff/engine.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "autodiff/context.h"
#include "autodiff/engine.h"
#include "autodiff/tape.h"
#include "ops/ops.h"

#include <catch2/catch.hpp>

using namespace gradstep;

TEST_CASE("a gradient accumulates over every use of a tensor")
{
    auto f = [](const std::vector<Value>& a) -> Value {
        const Tensor& x = a[0].tensor();
        return x * x + x;
    };
    Tensor x = Tensor::fromVector<float>({2}, {3.f, -1.f});
    Tensor g = grad(f)({x}).tensor();
    CHECK(g.at(0) == Approx(7.0));
    CHECK(g.at(1) == Approx(-1.0));
}

TEST_CASE("an input that does not reach the output gets zeros of its shape")
{
    auto f = [](const std::vector<Value>& a) -> Value { return a[0].tensor() * 2.0; };
    Tensor x = Tensor::fromVector<float>({2}, {1.f, 2.f});
    Tensor y = Tensor::fromVector<float>({3}, {1.f, 2.f, 3.f});
    Value g = grad(f, std::vector<std::int64_t>{0, 1})({x, y});
    REQUIRE(g.size() == 2);
    CHECK(g[1].tensor().shape() == Shape{3});
    CHECK(g[1].tensor().at(2) == 0.0);
    CHECK(g[0].tensor().at(0) == 2.0);
}

TEST_CASE("broadcast gradients are summed back to the input shape")
{
    auto f = [](const std::vector<Value>& a) -> Value { return reduceSum(a[0].tensor() * a[1].tensor()); };
    Tensor x = Tensor::fromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6});
    Tensor b = Tensor::fromVector<float>({3}, {1, 1, 1});
    Value g = grad(f, std::vector<std::int64_t>{0, 1})({x, b});
    Tensor gb = g[1].tensor();
    REQUIRE(gb.shape() == Shape{3});
    CHECK(gb.at(0) == 5.0);
    CHECK(gb.at(2) == 9.0);
}

TEST_CASE("a gradient accumulates over both branches of a diamond")
{
    // y = 2x; out = y*y + y  =>  d/dx = (2y + 1) * 2 = 8x + 2
    auto f = [](const std::vector<Value>& a) -> Value {
        Tensor y = a[0].tensor() * 2.0;
        return y * y + y;
    };
    Tensor x = Tensor::fromVector<double>({2}, {0.5, -2.0});
    Tensor g = grad(f)({x}).tensor();
    CHECK(g.dtype() == DType::Float64);
    CHECK(g.at(0) == Approx(6.0));
    CHECK(g.at(1) == Approx(-14.0));
}

TEST_CASE("a weight used several times collects every use")
{
    Parameter w(Tensor::fromVector<float>({1}, {3.f}), "w");
    // out = w*w*x + w  =>  d/dw = 2wx + 1
    auto f = [w](const std::vector<Value>& a) -> Value { return w * w * a[0].tensor() + w; };
    Value g = grad(f, std::monostate{}, w)({Tensor::fromVector<float>({1}, {2.f})});
    CHECK(g.tensor().at(0) == Approx(13.0));
}

TEST_CASE("an output that does not depend on the input gives zeros of the input's shape")
{
    Tensor x = Tensor::fromVector<float>({2, 2}, {1, 2, 3, 4});
    SECTION("a constant output")
    {
        auto f = [](const std::vector<Value>&) -> Value { return Tensor::full({3}, 2.0); };
        Tensor g = grad(f)({x}).tensor();
        CHECK(g.shape() == Shape{2, 2});
        CHECK(g.toDoubles() == std::vector<double>{0, 0, 0, 0});
    }
    SECTION("an output of another input only")
    {
        auto f = [](const std::vector<Value>& a) -> Value { return a[1].tensor() * a[1].tensor(); };
        Tensor g = grad(f)({x, Tensor::fromVector<float>({1}, {5.f})}).tensor();
        CHECK(g.shape() == Shape{2, 2});
        CHECK(g.toDoubles() == std::vector<double>{0, 0, 0, 0});
    }
    SECTION("an output cut by stop_gradient")
    {
        auto f = [](const std::vector<Value>& a) -> Value { return stopGradient(a[0].tensor() * 3.0); };
        CHECK(grad(f)({x}).tensor().toDoubles() == std::vector<double>{0, 0, 0, 0});
    }
    SECTION("a weight that does not require grad")
    {
        Parameter frozen(Tensor::fromVector<float>({1}, {2.f}), "frozen", false);
        auto f = [frozen](const std::vector<Value>& a) -> Value { return a[0].tensor() * frozen; };
        Value g = grad(f, std::monostate{}, ParameterTuple{frozen})({x});
        CHECK(g[0].tensor().toDoubles() == std::vector<double>{0});
    }
}

TEST_CASE("the gradient of the identity is the seed itself")
{
    auto f = [](const std::vector<Value>& a) -> Value { return a[0]; };
    Tensor x = Tensor::fromVector<float>({3}, {1, 2, 3});
    CHECK(grad(f)({x}).tensor().toDoubles() == std::vector<double>{1, 1, 1});
}

TEST_CASE("stop_gradient lets no gradient through while its value passes unchanged")
{
    // out = x*y + stop_gradient(x*y)  at x = 3, y = 5: value 30, d/dx = 5 (not 10)
    auto f = [](const std::vector<Value>& a) -> Value {
        Tensor xy = a[0].tensor() * a[1].tensor();
        return xy + stopGradient(xy);
    };
    Tensor x = Tensor::fromVector<float>({1}, {3.f});
    Tensor y = Tensor::fromVector<float>({1}, {5.f});
    Value vg = valueAndGrad(f)({x, y});
    CHECK(vg[0].tensor().at(0) == 30.0);
    CHECK(vg[1].tensor().at(0) == 5.0);
}

namespace {

// A node whose backward returns `bad` for input 0, recorded over x (shape [2]).
Tensor withBadBackward(const Tensor& x, Tensor bad, std::size_t gradCount = 1)
{
    Tensor in[] = {x};
    Tensor outs[] = {Tensor::zeros(x.shape(), x.dtype())};
    recordCustom("BadRule", in, outs, [bad, gradCount](const BackwardContext&, std::span<const Tensor>) {
        return TensorList(gradCount, bad);
    });
    return outs[0];
}

} // namespace

TEST_CASE("the engine rejects a gradient whose shape is not its input's, naming node and input")
{
    Tensor x = Tensor::fromVector<float>({2}, {1, 2});
    auto f = [](const std::vector<Value>& a) -> Value {
        return withBadBackward(a[0].tensor() * 2.0, Tensor::zeros({3})) * 2.0;
    };
    try {
        grad(f)({x});
        FAIL("no AutodiffError");
    } catch (const AutodiffError& e) {
        const std::string message = e.what();
        INFO(message);
        CHECK_THAT(message, Catch::Contains("'BadRule'"));
        CHECK_THAT(message, Catch::Contains("input 0"));
        CHECK_THAT(message, Catch::Contains("node #"));
        CHECK_THAT(message, Catch::Contains("[3] Float32"));
        CHECK_THAT(message, Catch::Contains("expected [2] Float32"));
    }
}

TEST_CASE("the engine rejects a gradient of the wrong dtype or a wrong number of gradients")
{
    Tensor x = Tensor::fromVector<float>({2}, {1, 2});
    SECTION("dtype")
    {
        auto f = [](const std::vector<Value>& a) -> Value {
            return withBadBackward(a[0].tensor() * 2.0, Tensor::zeros({2}, DType::Float64));
        };
        REQUIRE_THROWS_WITH(grad(f)({x}), Catch::Contains("[2] Float64, expected [2] Float32"));
    }
    SECTION("count")
    {
        auto f = [](const std::vector<Value>& a) -> Value {
            return withBadBackward(a[0].tensor() * 2.0, Tensor::zeros({2}), 2);
        };
        REQUIRE_THROWS_AS(grad(f)({x}), AutodiffError);
        REQUIRE_THROWS_WITH(grad(f)({x}), Catch::Contains("returned 2 gradients for 1 inputs"));
    }
}

TEST_CASE("a failed grad leaves no tape, phase or event suppression behind")
{
    Tensor x = Tensor::fromVector<float>({2}, {1, 2});
    auto badRule = [](const std::vector<Value>& a) -> Value {
        return withBadBackward(a[0].tensor() * 2.0, Tensor::zeros({3}));
    };
    auto throwsInForward = [](const std::vector<Value>& a) -> Value {
        if (reduceSum(a[0].tensor() * 2.0).item() > 0)
            throw ValueError("raised by the user's function");
        return a[0];
    };
    REQUIRE_THROWS_AS(grad(badRule)({x}), AutodiffError);
    REQUIRE_THROWS_AS(grad(throwsInForward)({x}), ValueError);
    const ExecutionContext& ctx = executionContext();
    CHECK(ctx.tapes.empty());
    CHECK(ctx.phase == Phase::Forward);
    CHECK(ctx.suppressEvents == 0);
    CHECK(ctx.backwardOrigin == nullptr);
    auto square = [](const std::vector<Value>& a) -> Value { return a[0].tensor() * a[0].tensor(); };
    CHECK(grad(square)({x}).tensor().toDoubles() == std::vector<double>{2, 4});
}
