// Tests of the backward engine (core/autodiff/engine.cpp). SPDX-License-Identifier: MIT
#include "api/grad.h"
#include "autodiff/engine.h"
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
