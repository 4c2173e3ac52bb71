// Widening a call to the compute dtypes and narrowing its outputs back. SPDX-License-Identifier: MIT
#include "ops/compute_dtype.h"

#include "ops/complex_support.h"
#include "ops/dispatch.h"
#include "ops/elementwise/kernels.h"
#include "ops/half_blocks.h"
#include "tensor/dtype_storage.h"
#include "tensor/half_convert.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>

namespace gradstep {

namespace {

bool allCompute(std::span<const Tensor> tensors)
{
    for (const Tensor& t : tensors)
        if (t.defined() && !isComputeDType(t.dtype()))
            return false;
    return true;
}

// UInt64 computes in Int64: the same bits for ring arithmetic (add, sub, mul, sums), equality
// and data movement, but not for order, division or anything through floats. Those ops refuse
// UInt64 rather than answer for values of 2^63 and above as if they were negative.
bool exactForUInt64(const OpDef& op)
{
    if (op.kind == OpKind::Shape || op.allocatesOutputs)
        return true;
    static constexpr std::array<std::string_view, 9> kRing{
        "Add", "Sub", "Mul", "Neg", "Square", "ReduceSum", "Equal", "NotEqual", "Select"};
    return std::find(kRing.begin(), kRing.end(), op.name) != kRing.end();
}

// The dtype MindSpore converts an elementwise op's operands to before computing (Bool operands,
// such as Select's condition, keep theirs), when that is a storage dtype: Float16 + Int64 rounds
// the integer to Float16 first, which widening both to Float32 would skip. Nullopt otherwise.
std::optional<DType> storagePromotion(const OpCall& call)
{
    if (call.op.kind != OpKind::Elementwise)
        return std::nullopt;
    std::optional<DType> p;
    for (const Tensor& t : call.inputs)
        if (t.defined() && t.dtype() != DType::Bool)
            p = p ? promote(*p, t.dtype()) : t.dtype();
    if (!p || isComputeDType(*p))
        return std::nullopt;
    return p;
}

} // namespace

void checkStorageDTypes(const OpCall& call)
{
    if (exactForUInt64(call.op))
        return;
    for (std::size_t i = 0; i < call.inputs.size(); ++i)
        if (call.inputs[i].defined() && call.inputs[i].dtype() == DType::UInt64)
            throwInputDType(call, i, (kNumberDTypes | dtypeBit(DType::Bool)) & ~dtypeBit(DType::UInt64));
}

void runKernel(const OpCall& call, std::span<Tensor> outputs)
{
    const OpDef& op = call.op;
    // Aliases and casts move or convert bytes themselves and take every dtype. Complex kernels
    // convert their real operands themselves (callOp and graph tracing refused complex inputs
    // to every other op; checked again for graphs built by hand).
    if (op.allocatesOutputs || (allCompute(call.inputs) && allCompute(outputs))) {
        checkComplexInputs(call);
        op.forward(call, outputs);
        return;
    }
    if (anyComplex(call.inputs) || anyComplex(outputs)) {
        checkComplexInputs(call);
        if (!takesComplex(op))
            throwInputDType(call, 0, kRealDTypes);
        op.forward(call, outputs);
        return;
    }
    checkStorageDTypes(call);
    if (runHalfElementwiseInBlocks(call, outputs))
        return;
    const std::optional<DType> promoted = storagePromotion(call);
    TensorList wide;
    wide.reserve(call.inputs.size());
    for (const Tensor& t : call.inputs) {
        if (!t.defined()) {
            wide.push_back(t);
            continue;
        }
        const Tensor operand = promoted && t.dtype() != DType::Bool ? convertDType(t, *promoted) : t;
        wide.push_back(convertDType(operand, computeDType(operand.dtype())));
    }
    // A dtype attribute (Fill's, OneHot's) names the result dtype: the kernel makes its compute
    // dtype and the narrowing below gives the one asked for.
    Attrs wideAttrs;
    for (const auto& [name, value] : call.attrs.items()) {
        const DType* d = std::get_if<DType>(&value);
        wideAttrs.set(name, d ? AttrValue(computeDType(*d)) : value);
    }
    const OpCall wideCall{op, wide, wideAttrs};
    SpecList specs;
    op.infer(wideCall, specs);
    OutputList wideOut;
    for (const TensorSpec& spec : specs)
        wideOut.push_back(Tensor::empty(spec.shape, spec.dtype));
    op.forward(wideCall, wideOut.span());
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        if (wideOut[i].dtype() == DType::Float32 && outputs[i].dtype() == DType::Float16
            && wideOut[i].shape() == outputs[i].shape()) {
            floatToHalf(wideOut[i].data<float>(), outputs[i].data<Eigen::half>(), outputs[i].numel());
            continue;
        }
        const Tensor narrow = convertDType(wideOut[i], outputs[i].dtype());
        // The wide result is already a fresh tensor when no narrowing was needed.
        outputs[i].copyFrom(narrow);
    }
}

} // namespace gradstep
