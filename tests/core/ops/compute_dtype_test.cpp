// Ops on storage dtypes through dispatch's widening (core/ops/compute_dtype.cpp), MindSpore's
// dtype errors, and gradients through integer tensors. SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"

using namespace gradstep;
using namespace gradstep::testing;

namespace {
Tensor typed(const Shape& shape, const std::vector<double>& v, DType dtype)
{
    return Tensor::fromDoubles(shape, v, dtype);
}

std::string dtypeErrorOf(const std::function<void()>& fn)
{
    try {
        fn();
    } catch (const DTypeError& e) {
        return e.what();
    }
    return "no DTypeError";
}
} // namespace

TEST_CASE("small integer arithmetic stays in its dtype and wraps")
{
    const Tensor a = typed({2}, {100, -128}, DType::Int8);
    const Tensor s = add(a, a);
    CHECK(s.dtype() == DType::Int8);
    checkValues(s, {-56, 0});
    const Tensor d = sub(typed({1}, {1}, DType::UInt8), typed({1}, {2}, DType::UInt8));
    CHECK(d.dtype() == DType::UInt8);
    checkValues(d, {255});
    const Tensor m = mul(typed({1}, {300}, DType::Int16), typed({1}, {300}, DType::Int16));
    checkValues(m, {24464}); // 90000 mod 2^16 as a signed 16-bit value
    // 65535 * 65535 overflows the int that 16-bit operands promote to in C++.
    const Tensor u = mul(typed({1}, {65535}, DType::UInt16), typed({1}, {65535}, DType::UInt16));
    CHECK(u.dtype() == DType::UInt16);
    checkValues(u, {1});
    const Tensor mixed = add(typed({1}, {-1}, DType::Int8), typed({1}, {255}, DType::UInt8));
    CHECK(mixed.dtype() == DType::Int16);
    checkValues(mixed, {254});
}

TEST_CASE("float16 and bfloat16 ops compute in float32 and round after each op")
{
    const Tensor a = typed({1}, {2048}, DType::Float16);
    const Tensor s = add(a, typed({1}, {1}, DType::Float16));
    CHECK(s.dtype() == DType::Float16);
    checkValues(s, {2048}); // 2049 is not a half; the tie rounds to even
    const Tensor big = mul(typed({1}, {300}, DType::Float16), typed({1}, {300}, DType::Float16));
    checkValues(big, {kInf});
    const Tensor b = sqrt(typed({1}, {2}, DType::BFloat16));
    CHECK(b.dtype() == DType::BFloat16);
    checkValues(b, {1.4140625});
    CHECK(add(typed({1}, {1}, DType::Float16), typed({1}, {1}, DType::BFloat16)).dtype() == DType::Float32);
    // MindSpore converts the Int64 operand to Float16 first (2049 -> 2048), then adds.
    const Tensor mixed = add(typed({1}, {0.5}, DType::Float16), i64({1}, {2049}));
    CHECK(mixed.dtype() == DType::Float16);
    checkValues(mixed, {2048});
    const Tensor h = matmul(typed({1, 2}, {1, 2}, DType::Float16), typed({2, 1}, {3, 4}, DType::Float16));
    CHECK(h.dtype() == DType::Float16);
    checkValues(h, {11});
}

TEST_CASE("an op refuses a dtype it does not take with MindSpore's TypeError")
{
    CHECK(dtypeErrorOf([] { sqrt(typed({1}, {4}, DType::Int8)); })
          == "For 'Sqrt', the type of 'x' should be Tensor[Float16, BFloat16, Float32, Float64, Complex64, "
             "Complex128], but got Tensor[Int8].");
    CHECK_THAT(dtypeErrorOf([] { greater(typed({1}, {1}, DType::UInt64), typed({1}, {2}, DType::UInt64)); }),
               Catch::StartsWith("For 'Greater', the type of 'x' should be Tensor[Bool, UInt8")
                   && Catch::EndsWith("but got Tensor[UInt64]."));
    CHECK_THAT(dtypeErrorOf([] { gather(f32({2}, {1, 2}), typed({1}, {0}, DType::Int8), 0); }),
               Catch::Contains("the type of 'input_indices' should be Tensor[Int32, Int64], but got Tensor[Int8]"));
    // UInt64 ring arithmetic is exact in Int64's bits.
    const Tensor u = add(typed({1}, {0}, DType::UInt64), typed({1}, {1}, DType::UInt64));
    CHECK(u.dtype() == DType::UInt64);
    checkValues(u, {1});
}

TEST_CASE("cast's gradient is cast back to the input dtype, through integers too")
{
    // MindSpore: d/dx sum(cast(cast(x * 2.7, int32), float32)) = cast(cast(1, int32), float32) * 2.7
    const Tensor g = gradOfSum(
        [](const Tensor& x) { return cast(cast(mul(x, f32({1}, {2.7f})), DType::Int32), DType::Float32); },
        f32({2}, {1.0f, 2.0f}));
    CHECK(g.dtype() == DType::Float32);
    checkValues(g, {2.7, 2.7});
    // A fractional incoming gradient is truncated by the cast to int32 on its way back.
    const Tensor h = gradOfSum(
        [](const Tensor& x) { return mul(cast(cast(x, DType::Int32), DType::Float32), f32({1}, {0.5f})); },
        f32({1}, {3.0f}));
    checkValues(h, {0});
}

TEST_CASE("the gradient with respect to an integer input is an integer tensor")
{
    const Tensor g = gradOfSum([](const Tensor& x) { return mul(x, x); }, i32({2}, {3, -4}));
    CHECK(g.dtype() == DType::Int32);
    checkValues(g, {6, -8});
    const Tensor h = gradOfSum([](const Tensor& x) { return add(x, x); }, typed({1}, {5}, DType::Int8));
    CHECK(h.dtype() == DType::Int8);
    checkValues(h, {2});
}
