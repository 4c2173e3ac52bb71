// See half_blocks.h. SPDX-License-Identifier: MIT
#include "ops/half_blocks.h"

#include "tensor/dtype_storage.h"
#include "tensor/half_convert.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

namespace gradstep {

namespace {

// 8192 float32 values per operand: a binary op's three blocks take 96 KiB, within L2.
constexpr std::int64_t kBlock = 8192;

bool qualifies(const OpCall& call, std::span<Tensor> outputs)
{
    const OpDef& op = call.op;
    if (op.kind != OpKind::Elementwise || op.allocatesOutputs || outputs.empty() || call.inputs.empty())
        return false;
    const Shape& shape = outputs[0].shape();
    if (outputs[0].numel() < 2 * kBlock)
        return false;
    for (const Tensor& t : call.inputs)
        if (!t.defined() || t.dtype() != DType::Float16 || !(t.shape() == shape))
            return false;
    for (const Tensor& t : outputs)
        if (t.dtype() != DType::Float16 || !(t.shape() == shape))
            return false;
    // A dtype attribute would name a result dtype the kernel has to produce itself.
    for (const auto& item : call.attrs.items())
        if (std::holds_alternative<DType>(item.second))
            return false;
    return true;
}

struct Blocks {
    TensorList inputs;
    OutputList outputs;
    Blocks(std::size_t nIn, std::size_t nOut, std::int64_t size)
    {
        for (std::size_t i = 0; i < nIn; ++i)
            inputs.push_back(Tensor::empty({size}, DType::Float32));
        for (std::size_t i = 0; i < nOut; ++i)
            outputs.push_back(Tensor::empty({size}, DType::Float32));
    }
};

void runBlock(const OpCall& call, std::span<Tensor> outputs, Blocks& b, std::int64_t begin, std::int64_t size)
{
    for (std::size_t i = 0; i < call.inputs.size(); ++i)
        halfToFloat(call.inputs[i].data<Eigen::half>() + begin, b.inputs[i].data<float>(), size);
    const OpCall wide{call.op, b.inputs, call.attrs};
    call.op.forward(wide, b.outputs.span());
    for (std::size_t i = 0; i < outputs.size(); ++i)
        floatToHalf(b.outputs[i].data<float>(), outputs[i].data<Eigen::half>() + begin, size);
}

// The four IEEE operations fuse widening, computing and rounding in one pass (half_convert.h).
std::optional<HalfArith> fusedArithmetic(const OpCall& call)
{
    if (call.inputs.size() != 2)
        return std::nullopt;
    const std::string_view name = call.op.name;
    if (name == "Add")
        return HalfArith::Add;
    if (name == "Sub")
        return HalfArith::Sub;
    if (name == "Mul")
        return HalfArith::Mul;
    if (name == "RealDiv")
        return HalfArith::Div;
    return std::nullopt;
}

// Neg, Abs and ReLU of a float16 value are float16 values: the float32 kernel's result needs no
// rounding, so they are computed on the bits in one pass, with the same bits as widening,
// computing and rounding (a NaN comes out quiet, as the widening makes it; ReLU sends -0 to +0
// and keeps NaN, as reluValue does). Square is x * x: the fused multiplication with itself.
constexpr std::uint16_t kSign = 0x8000, kExponent = 0x7c00, kMantissa = 0x03ff, kQuiet = 0x0200;

inline bool isNaNBits(std::uint16_t b) { return (b & kExponent) == kExponent && (b & kMantissa) != 0; }

inline std::uint16_t quieted(std::uint16_t b) { return isNaNBits(b) ? static_cast<std::uint16_t>(b | kQuiet) : b; }

template <class F> void mapBits(const Tensor& in, Tensor& out, F f)
{
    const auto* x = static_cast<const std::uint16_t*>(in.rawData());
    auto* y = static_cast<std::uint16_t*>(out.rawData());
    for (std::int64_t i = 0, n = out.numel(); i < n; ++i)
        y[i] = f(x[i]);
}

bool fusedUnary(const OpCall& call, std::span<Tensor> outputs)
{
    if (call.inputs.size() != 1 || outputs.size() != 1)
        return false;
    const std::string_view name = call.op.name;
    const Tensor& x = call.inputs[0];
    if (name == "Neg")
        mapBits(x, outputs[0], [](std::uint16_t b) { return quieted(static_cast<std::uint16_t>(b ^ kSign)); });
    else if (name == "Abs")
        mapBits(x, outputs[0], [](std::uint16_t b) { return quieted(static_cast<std::uint16_t>(b & ~kSign)); });
    else if (name == "ReLU")
        mapBits(x, outputs[0], [](std::uint16_t b) {
            return isNaNBits(b) ? static_cast<std::uint16_t>(b | kQuiet) : (b & kSign) != 0 ? std::uint16_t{0} : b;
        });
    else if (name == "Square")
        return halfArithmetic(HalfArith::Mul, x.data<Eigen::half>(), x.data<Eigen::half>(),
                              outputs[0].data<Eigen::half>(), outputs[0].numel());
    else
        return false;
    return true;
}

} // namespace

bool runHalfElementwiseInBlocks(const OpCall& call, std::span<Tensor> outputs)
{
    if (!qualifies(call, outputs))
        return false;
    if (const std::optional<HalfArith> op = fusedArithmetic(call))
        if (halfArithmetic(*op, call.inputs[0].data<Eigen::half>(), call.inputs[1].data<Eigen::half>(),
                           outputs[0].data<Eigen::half>(), outputs[0].numel()))
            return true;
    if (fusedUnary(call, outputs))
        return true;
    const std::int64_t n = outputs[0].numel();
    const std::int64_t whole = n / kBlock * kBlock;
    Blocks full(call.inputs.size(), outputs.size(), kBlock);
    for (std::int64_t begin = 0; begin < whole; begin += kBlock)
        runBlock(call, outputs, full, begin, kBlock);
    if (whole < n) {
        Blocks tail(call.inputs.size(), outputs.size(), n - whole);
        runBlock(call, outputs, tail, whole, n - whole);
    }
    return true;
}

} // namespace gradstep
