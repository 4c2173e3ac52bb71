// Tests of argmax and argmin (core/ops/reduction/argmax.cpp, argmin.cpp). SPDX-License-Identifier: MIT
#include "ops/ops.h"
#include "ops/registry.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace gradstep;

namespace {
// [[3, 9, 7], [9, 0, 0]]
Tensor matrix(DType dtype = DType::Float32) { return Tensor::fromDoubles({2, 3}, {3, 9, 7, 9, 0, 0}, dtype); }
} // namespace

TEST_CASE("argmax and argmin give Int32 indices along the last axis by default")
{
    const Tensor y = argmax(matrix());
    CHECK(y.dtype() == DType::Int32);
    CHECK(y.shape() == Shape{2});
    CHECK(y.toDoubles() == std::vector<double>{1, 0});
    CHECK(argmin(matrix()).toDoubles() == std::vector<double>{0, 1});
    CHECK(argmax(matrix(), 0).toDoubles() == std::vector<double>{1, 0, 0});
    CHECK(argmin(matrix(DType::Int64), -2, true).shape() == Shape{1, 3});
    CHECK(argmin(matrix(DType::Int64), -2, true).toDoubles() == std::vector<double>{0, 1, 1});
}

TEST_CASE("argmax and argmin return the first index on ties")
{
    CHECK(argmax(Tensor::fromDoubles({4}, {1, 5, 5, 5})).item() == 1.0);
    CHECK(argmin(Tensor::fromDoubles({4}, {2, 0, 3, 0})).item() == 1.0);
}

TEST_CASE("argmax and argmin return the first NaN")
{
    const Tensor x = Tensor::fromDoubles({4}, {1, std::nan(""), 7, std::nan("")});
    CHECK(argmax(x).item() == 1.0);
    CHECK(argmin(x).item() == 1.0);
}

TEST_CASE("argmax of a 0-D tensor is 0, of an empty axis a value error")
{
    CHECK(argmax(Tensor::scalar(3.0)).item() == 0.0);
    CHECK(argmax(Tensor::scalar(3.0)).shape() == Shape{});
    CHECK_THROWS_AS(argmax(Tensor::zeros({0})), ValueError);
    CHECK(argmin(Tensor::zeros({0, 2}), 1).shape() == Shape{0});
    CHECK_THROWS_WITH(argmax(matrix(), 2), Catch::Contains("'Argmax'") && Catch::Contains("axis 2")
                                               && Catch::Contains("rank 2"));
    CHECK_THROWS_AS(argmax(Tensor::zeros({2}, DType::Bool)), DTypeError);
}

TEST_CASE("argmax and argmin are not differentiable")
{
    CHECK_FALSE(OpRegistry::instance().get("Argmax").differentiable());
    CHECK_FALSE(OpRegistry::instance().get("Argmin").differentiable());
}
