// Float16 through the op catalogue, bit for bit against NumPy computing each op in float32 and
// rounding once to float16 (float16_golden.py writes the expected bits), in the small-tensor path
// and in the blocked path of large elementwise ops (ops/half_blocks.cpp); the bulk float16
// conversions against Eigen::half's element conversion. SPDX-License-Identifier: MIT
#include "tests/core/ops/elementwise/elementwise_test_util.h"
#include "tests/core/ops/float16_golden.h"

#include "ops/norm_ops.h"
#include "tensor/dtype_storage.h"
#include "tensor/half_convert.h"

#include <cstring>

using namespace gradstep;
using namespace gradstep::testing;

namespace {

Tensor half(const Shape& shape, const std::vector<std::uint16_t>& bits)
{
    Tensor t = Tensor::empty(shape, DType::Float16);
    REQUIRE(static_cast<std::int64_t>(bits.size()) == t.numel());
    std::memcpy(t.rawData(), bits.data(), bits.size() * sizeof(std::uint16_t));
    return t;
}

Tensor half(const std::vector<std::uint16_t>& bits) { return half({static_cast<std::int64_t>(bits.size())}, bits); }

std::vector<std::uint16_t> bitsOf(const Tensor& t)
{
    REQUIRE(t.dtype() == DType::Float16);
    std::vector<std::uint16_t> out(static_cast<std::size_t>(t.numel()));
    std::memcpy(out.data(), t.rawData(), out.size() * sizeof(std::uint16_t));
    return out;
}

bool isNaNBits(std::uint16_t b) { return (b & 0x7c00) == 0x7c00 && (b & 0x03ff) != 0; }

// Equal bits, or NaN on both sides (NumPy keeps a NaN's payload, F16C quiets it).
void checkBits(const Tensor& got, const std::vector<std::uint16_t>& expected)
{
    const std::vector<std::uint16_t> actual = bitsOf(got);
    REQUIRE(actual.size() == expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
        INFO("element " << i << ": got 0x" << std::hex << actual[i] << ", expected 0x" << expected[i]);
        CHECK((actual[i] == expected[i] || (isNaNBits(actual[i]) && isNaNBits(expected[i]))));
    }
}

// `pattern` repeated to n elements.
std::vector<std::uint16_t> tiled(const std::vector<std::uint16_t>& pattern, std::size_t n)
{
    std::vector<std::uint16_t> out(n);
    for (std::size_t i = 0; i < n; ++i)
        out[i] = pattern[i % pattern.size()];
    return out;
}

} // namespace

TEST_CASE("float16 elementwise ops match NumPy's float32 compute rounded once, bit for bit")
{
    const Tensor a = half(kA), b = half(kB);
    checkBits(neg(a), kNeg);
    checkBits(abs(a), kAbs);
    checkBits(square(a), kSquare);
    checkBits(exp(a), kExp);
    checkBits(log(abs(a)), kLog);
    checkBits(sqrt(abs(a)), kSqrt);
    checkBits(rsqrt(abs(a)), kRsqrt);
    checkBits(sigmoid(a), kSigmoid);
    checkBits(tanh(a), kTanh);
    checkBits(relu(a), kRelu);
    checkBits(add(a, b), kAdd);
    checkBits(sub(a, b), kSub);
    checkBits(mul(a, b), kMul);
    checkBits(div(a, b), kDiv);
    checkBits(maximum(a, b), kMaximum);
    checkBits(minimum(a, b), kMinimum);
}

TEST_CASE("large float16 elementwise ops run in blocks with the same bits as small ones")
{
    // 3 blocks of 8192 and a tail: every element of kA/kB lands in each block and in the tail.
    const std::size_t n = 3 * 8192 + 1000;
    const Tensor a = half(tiled(kA, n)), b = half(tiled(kB, n));
    checkBits(add(a, b), tiled(kAdd, n));
    checkBits(div(a, b), tiled(kDiv, n));
    checkBits(exp(a), tiled(kExp, n));
    checkBits(tanh(a), tiled(kTanh, n));
    checkBits(mul(a, b), tiled(kMul, n));
    // Neg, Abs and ReLU on the bits, Square as x * x (ops/half_blocks.cpp).
    checkBits(neg(a), tiled(kNeg, n));
    checkBits(abs(a), tiled(kAbs, n));
    checkBits(relu(a), tiled(kRelu, n));
    checkBits(square(a), tiled(kSquare, n));
}

TEST_CASE("the float16 bit-level Neg, Abs, ReLU and Square agree with the widening path on NaN, inf, zeros and subnormals")
{
    // Signalling and quiet NaN of both signs, +-inf, +-0, the smallest and largest subnormals,
    // the largest finite value, and ordinary numbers.
    const std::vector<std::uint16_t> special{0x7c01, 0x7e00, 0xfc01, 0xfe00, 0x7c00, 0xfc00, 0x0000, 0x8000,
                                             0x0001, 0x8001, 0x03ff, 0x83ff, 0x7bff, 0xfbff, 0x3c00, 0xbc00};
    const std::size_t n = 2 * 8192 + 16;
    const Tensor small = half(special), large = half(tiled(special, n));
    for (auto op : {+[](const Tensor& t) { return neg(t); }, +[](const Tensor& t) { return abs(t); },
                    +[](const Tensor& t) { return relu(t); }, +[](const Tensor& t) { return square(t); }})
        checkBits(op(large), tiled(bitsOf(op(small)), n));
}

TEST_CASE("float16 matmul, conv2d, reductions, softmax, norms and losses match NumPy bit for bit")
{
    const Tensor m = half({4, 6}, kM), n = half({6, 5}, kN);
    checkBits(matmul(m, n), kMatMul);
    checkBits(reduceSum(m, {1}), kReduceSum);
    checkBits(reduceMean(m, {1}), kReduceMean);
    checkBits(reduceMax(m, {1}), kReduceMax);
    checkBits(softmax(m, -1), kSoftmax);
    checkBits(logSoftmax(m, -1), kLogSoftmax);
    checkBits(sparseSoftmaxCrossEntropy(m, i32({4}, kLabels)), kSparseCE);
    checkBits(mseLoss(m, half({4, 6}, kTarget)), kMse);
    const Tensor ones = Tensor::full({6}, 1.0, DType::Float16), zeros = Tensor::zeros({6}, DType::Float16);
    checkBits(layerNorm(m, ones, zeros, 1, 1, 1e-5)[0], kLayerNorm);
    checkBits(conv2d(half({1, 2, 5, 5}, kConvX), half({3, 2, 3, 3}, kConvW)), kConv2D);
}

TEST_CASE("casts to float16 round to nearest even, overflow to inf, keep subnormals and NaN")
{
    const Tensor from32 = cast(Tensor::fromVector<float>({static_cast<std::int64_t>(kCastIn.size())}, kCastIn),
                               DType::Float16);
    checkBits(from32, kCastF32);
    // MindSpore's float16 takes a float: float64 rounds to float32 first (double rounding).
    const Tensor from64 = cast(
        Tensor::fromVector<double>({static_cast<std::int64_t>(kCastF64In.size())}, kCastF64In), DType::Float16);
    checkBits(from64, kCastF64);
    // Back to float32 every float16 value is exact.
    const Tensor back = cast(half(kA), DType::Float32);
    for (std::size_t i = 0; i < kA.size(); ++i)
        CHECK(back.data<float>()[i] == static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(kA[i])));
}

TEST_CASE("the bulk float16 conversions agree with Eigen::half on every float16 value")
{
    // All 65536 bit patterns to float32 and back; float32 values between halves round like Eigen.
    std::vector<Eigen::half> all(65536);
    for (std::uint32_t i = 0; i < 65536; ++i)
        all[i] = Eigen::numext::bit_cast<Eigen::half>(static_cast<std::uint16_t>(i));
    std::vector<float> wide(all.size());
    halfToFloat(all.data(), wide.data(), static_cast<std::int64_t>(all.size()));
    std::vector<float> between(wide.size());
    for (std::size_t i = 0; i < wide.size(); ++i) {
        const float expected = static_cast<float>(all[i]);
        const bool nan = expected != expected;
        CHECK((nan ? wide[i] != wide[i] : std::memcmp(&wide[i], &expected, sizeof(float)) == 0));
        between[i] = nan ? expected : std::nextafter(expected, 0.0f) * 1.0004f; // off the grid
    }
    std::vector<Eigen::half> narrow(wide.size());
    floatToHalf(between.data(), narrow.data(), static_cast<std::int64_t>(between.size()));
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < between.size(); ++i) {
        const Eigen::half expected(between[i]);
        const auto got = Eigen::numext::bit_cast<std::uint16_t>(narrow[i]);
        const auto want = Eigen::numext::bit_cast<std::uint16_t>(expected);
        if (got != want && !(isNaNBits(got) && isNaNBits(want)))
            ++mismatches;
    }
    CHECK(mismatches == 0);
}
