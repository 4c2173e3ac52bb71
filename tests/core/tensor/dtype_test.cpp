// Tests of the dtype table, element conversions (core/tensor/dtype_storage.h) and promotion.
// SPDX-License-Identifier: MIT
#include "tensor/dtype_storage.h"
#include "tensor/tensor.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

using namespace gradstep;

namespace {
std::uint16_t bits(Eigen::half h) { return Eigen::numext::bit_cast<std::uint16_t>(h); }
std::uint16_t bits(Eigen::bfloat16 h) { return Eigen::numext::bit_cast<std::uint16_t>(h); }
std::uint16_t halfBits(double v) { return bits(convertElement<Eigen::half>(v)); }
std::uint16_t bf16Bits(float v) { return bits(convertElement<Eigen::bfloat16>(v)); }
} // namespace

TEST_CASE("every dtype has MindSpore's name, its size and its kind")
{
    CHECK(dtypeName(DType::Int8) == "Int8");
    CHECK(dtypeName(DType::UInt16) == "UInt16");
    CHECK(dtypeName(DType::Float16) == "Float16");
    CHECK(dtypeName(DType::BFloat16) == "BFloat16");
    CHECK(itemSize(DType::UInt8) == 1);
    CHECK(itemSize(DType::BFloat16) == 2);
    CHECK(itemSize(DType::UInt32) == 4);
    CHECK(itemSize(DType::UInt64) == 8);
    CHECK(isFloating(DType::Float16));
    CHECK(isFloating(DType::BFloat16));
    CHECK(isIntegral(DType::UInt64));
    CHECK(isUnsigned(DType::UInt8));
    CHECK_FALSE(isUnsigned(DType::Int8));
    CHECK_FALSE(isIntegral(DType::Bool));
    CHECK(computeDType(DType::Float16) == DType::Float32);
    CHECK(computeDType(DType::UInt16) == DType::Int32);
    CHECK(computeDType(DType::UInt32) == DType::Int64);
}

TEST_CASE("float to float16 rounds to nearest even, overflows to inf and keeps subnormals and NaN")
{
    CHECK(halfBits(65504.0) == 0x7BFF);     // the largest half
    CHECK(halfBits(65519.0) == 0x7BFF);     // below the midpoint to 65536: rounds down
    CHECK(halfBits(65520.0) == 0x7C00);     // the midpoint rounds to even: inf
    CHECK(halfBits(-1e6) == 0xFC00);
    CHECK(halfBits(1.0) == 0x3C00);
    CHECK(halfBits(1.0 + 1.0 / 2048) == 0x3C00); // tie between 1 and 1+2^-10: even (1)
    CHECK(halfBits(1.0 + 3.0 / 2048) == 0x3C02); // tie between 1+2^-10 and 1+2^-9: even
    CHECK(halfBits(5.9604644775390625e-8) == 0x0001); // the smallest subnormal
    CHECK(halfBits(1e-8) == 0x0000);                  // below half of it: zero
    CHECK(halfBits(-1e-8) == 0x8000);                 // signed zero
    CHECK(halfBits(3e-8) == 0x0001);                  // above half of it: the subnormal
    const Eigen::half nan = convertElement<Eigen::half>(std::numeric_limits<float>::quiet_NaN());
    CHECK(std::isnan(static_cast<float>(nan)));
    CHECK(convertElement<double>(convertElement<Eigen::half>(0.1)) == 0.0999755859375);
}

TEST_CASE("float to bfloat16 keeps float's exponent and rounds the mantissa to nearest even")
{
    CHECK(bf16Bits(1.0f) == 0x3F80);
    CHECK(bf16Bits(1.00390625f) == 0x3F80); // 1 + 2^-8, a tie: even
    CHECK(bf16Bits(1.01171875f) == 0x3F82); // 1 + 3*2^-8, a tie: even
    CHECK(bf16Bits(3.0e38f) == 0x7F62);
    CHECK(bf16Bits(std::numeric_limits<float>::max()) == 0x7F80); // rounds up to inf
    CHECK(std::isnan(static_cast<float>(convertElement<Eigen::bfloat16>(std::nanf("")))));
}

TEST_CASE("float to integer truncates like MindSpore's CPU Cast and narrow integers wrap")
{
    CHECK(convertElement<std::int32_t>(2.7f) == 2);
    CHECK(convertElement<std::int32_t>(-2.7) == -2);
    CHECK(convertElement<std::int32_t>(1e10) == std::numeric_limits<std::int32_t>::min());
    CHECK(convertElement<std::int32_t>(std::nan("")) == std::numeric_limits<std::int32_t>::min());
    CHECK(convertElement<std::int8_t>(300.0f) == 44);
    CHECK(convertElement<std::uint8_t>(-1.0f) == 255);
    CHECK(convertElement<std::int8_t>(std::nan("")) == 0);
    CHECK(convertElement<std::uint32_t>(-1.0) == 0xFFFFFFFFu);
    CHECK(convertElement<std::uint64_t>(1.8446744073709552e19) == 0u);
    CHECK(convertElement<std::uint64_t>(9.3e18) == 9300000000000000000u);
    CHECK(convertElement<std::int8_t>(std::int32_t{200}) == -56);
    CHECK(convertElement<std::uint16_t>(std::int64_t{-1}) == 65535);
    CHECK(convertElement<bool>(Eigen::half(0.5f)));
    CHECK_FALSE(convertElement<bool>(Eigen::half(0.0f)));
}

TEST_CASE("tensors of storage dtypes fill, read and print their own values")
{
    const Tensor h = Tensor::fromDoubles({3}, {1.0, 65520.0, 0.1}, DType::Float16);
    CHECK(h.nbytes() == 6);
    CHECK(h.at(0) == 1.0);
    CHECK(std::isinf(h.at(1)));
    CHECK(h.at(2) == 0.0999755859375);
    CHECK(h.toString() == "Tensor(shape=[3], dtype=Float16, value= [ 1.0000e+00,         inf,  9.9976e-02])");
    const Tensor u = Tensor::full({2}, 255.0, DType::UInt8);
    CHECK(u.at(1) == 255.0);
    CHECK(u.toString() == "Tensor(shape=[2], dtype=UInt8, value= [255, 255])");
    Tensor big = Tensor::empty({1}, DType::UInt64);
    big.data<std::uint64_t>()[0] = 18446744073709551615u; // a double would round it
    CHECK(big.toString() == "Tensor(shape=[1], dtype=UInt64, value= [18446744073709551615])");
    const Tensor wrapped = convertDType(Tensor::fromDoubles({2}, {128, -129}, DType::Int32), DType::Int8);
    CHECK(wrapped.at(0) == -128.0);
    CHECK(wrapped.at(1) == 127.0);
}

TEST_CASE("promotion follows MindSpore 2.2's table")
{
    CHECK(promote(DType::Int8, DType::UInt8) == DType::Int16);
    CHECK(promote(DType::UInt8, DType::Int16) == DType::Int16);
    CHECK(promote(DType::UInt8, DType::Int32) == DType::Int32);
    CHECK(promote(DType::Bool, DType::UInt8) == DType::UInt8);
    CHECK(promote(DType::Int64, DType::Float16) == DType::Float16);
    CHECK(promote(DType::Float16, DType::Float32) == DType::Float32);
    CHECK(promote(DType::Float16, DType::BFloat16) == DType::Float32);
    CHECK(promote(DType::BFloat16, DType::Float64) == DType::Float64);
    CHECK(promote(DType::UInt16, DType::Int16) == DType::Int32);
    CHECK(promote(DType::UInt32, DType::Int8) == DType::Int64);
    CHECK(promote(DType::Int32, DType::Int64) == DType::Int64);
    CHECK(promote(DType::Int32, DType::Float32) == DType::Float32);
    for (DType a : kAllDTypes)
        for (DType b : kAllDTypes)
            CHECK(promote(a, b) == promote(b, a));
}
