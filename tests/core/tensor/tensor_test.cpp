// Tests of Tensor, Shape and DType (core/tensor). SPDX-License-Identifier: MIT
#include "tensor/tensor.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace gradstep;

TEST_CASE("shapes broadcast as NumPy does and name the op when they cannot")
{
    CHECK(broadcastShapes(Shape{2, 3}, Shape{3}, "Add") == Shape{2, 3});
    CHECK(broadcastShapes(Shape{4, 1, 3}, Shape{2, 1}, "Add") == Shape{4, 2, 3});
    CHECK(broadcastShapes(Shape{}, Shape{5}, "Add") == Shape{5});
    CHECK(broadcastShapes(Shape{0, 3}, Shape{1, 3}, "Add") == Shape{0, 3});
    CHECK_THROWS_AS(broadcastShapes(Shape{2, 3}, Shape{4}, "Add"), ShapeError);
    CHECK_THROWS_WITH(broadcastShapes(Shape{2, 3}, Shape{4}, "Add"),
                      Catch::Contains("'Add'") && Catch::Contains("[2, 3]") && Catch::Contains("[4]"));
}

TEST_CASE("axes normalise from negative values and out-of-range axes are value errors")
{
    CHECK(normalizeAxis(-1, 3, "ReduceSum") == 2);
    CHECK(normalizeAxis(0, 0, "ReduceSum") == 0);
    CHECK_THROWS_AS(normalizeAxis(3, 3, "ReduceSum"), ValueError);
    CHECK_THROWS_WITH(normalizeAxis(-4, 3, "ReduceSum"), Catch::Contains("axis -4") && Catch::Contains("rank 3"));
}

TEST_CASE("a shape deeper than the maximum rank or with a negative dimension is refused")
{
    Shape s;
    for (int i = 0; i < Shape::kMaxRank; ++i)
        s.push_back(1);
    CHECK_THROWS_AS(s.push_back(1), ShapeError);
    CHECK_THROWS_AS((Shape{2, -1}), ShapeError);
}

TEST_CASE("dtypes promote to the wider type")
{
    CHECK(promote(DType::Int32, DType::Float32) == DType::Float32);
    CHECK(promote(DType::Float32, DType::Float64) == DType::Float64);
    CHECK(promote(DType::Bool, DType::Int64) == DType::Int64);
    CHECK(dtypeName(DType::Float32) == "Float32");
    CHECK(itemSize(DType::Int64) == 8);
}

TEST_CASE("tensors print in MindSpore's format")
{
    CHECK(Tensor::fromVector<float>({2, 2}, {1, 2, 3, -4}).toString()
          == "Tensor(shape=[2, 2], dtype=Float32, value=\n"
             "[[ 1.00000000e+00,  2.00000000e+00],\n"
             " [ 3.00000000e+00, -4.00000000e+00]])");
    CHECK(Tensor::fromVector<std::int32_t>({3}, {1, 20, 3}).toString()
          == "Tensor(shape=[3], dtype=Int32, value= [ 1, 20,  3])");
    CHECK(Tensor::fromVector<bool>({2}, {true, false}).toString()
          == "Tensor(shape=[2], dtype=Bool, value= [ True, False])");
    CHECK(Tensor::scalar(2.5).toString() == "Tensor(shape=[], dtype=Float32, value= 2.5)");
    CHECK(Tensor::scalar(4.0).toString() == "Tensor(shape=[], dtype=Float32, value= 4)");
    CHECK(Tensor::scalar(1e-6).toString() == "Tensor(shape=[], dtype=Float32, value= 1e-06)");
    const float nan = std::numeric_limits<float>::quiet_NaN();
    CHECK(Tensor::fromVector<float>({2}, {nan, -INFINITY}).toString()
          == "Tensor(shape=[2], dtype=Float32, value= [            nan,            -inf])");
    CHECK(Tensor::zeros(Shape{0, 3}).toString() == "Tensor(shape=[0, 3], dtype=Float32, value= [])");
}

TEST_CASE("long tensors are summarised with an ellipsis")
{
    Tensor big = Tensor::zeros(Shape{2000}, DType::Int32);
    const std::string s = big.toString();
    CHECK(s.find("...") != std::string::npos);
    CHECK(s.size() < 200);
}

TEST_CASE("element access checks the dtype and the range")
{
    Tensor t = Tensor::fromVector<double>({3}, {1.5, 2.5, 3.5});
    CHECK(t.at(1) == 2.5);
    CHECK_THROWS_AS(t.data<float>(), DTypeError);
    CHECK_THROWS_AS(t.at(3), IndexError);
    CHECK_THROWS_AS(t.item(), ValueError);
    CHECK(Tensor::scalar(4.0, DType::Int64).item() == 4.0);
    CHECK_THROWS_AS(Tensor::fromVector<float>({2, 2}, {1, 2, 3}), ShapeError);
}

TEST_CASE("detach shares storage, clone copies it")
{
    Tensor t = Tensor::fromVector<float>({2}, {1, 2});
    Tensor alias = t.detach();
    Tensor copy = t.clone();
    t.data<float>()[0] = 9;
    CHECK(alias.at(0) == 9);
    CHECK(copy.at(0) == 1);
    CHECK_THROWS_AS(t.viewAs(Shape{3}), ShapeError);
    CHECK(t.viewAs(Shape{2, 1}).shape() == Shape{2, 1});
}

TEST_CASE("a shape's element count is zero when any dimension is zero, and refuses an int64 overflow")
{
    const std::int64_t big = std::int64_t{1} << 40;
    CHECK(Shape{big, big, 0}.numel() == 0);
    CHECK(Shape{0, big, big}.numel() == 0);
    CHECK(Shape{big, 4}.numel() == big * 4);
    CHECK_THROWS_AS(Shape({big, big}).numel(), ShapeError);
}
