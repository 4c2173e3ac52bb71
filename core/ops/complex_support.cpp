// The ops with complex kernels: those MindSpore's CPU kernels compute for complex64/complex128,
// plus the ones that only move or alias elements. SPDX-License-Identifier: MIT
#include "ops/complex_support.h"

#include "ops/dispatch.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace gradstep {

bool takesComplex(const OpDef& op)
{
    static constexpr std::array<std::string_view, 46> kComplexOps{
        // arithmetic and maps
        "Add", "Sub", "Mul", "RealDiv", "Neg", "Square", "Exp", "Log", "Sqrt", "Tanh", "Sin", "Cos",
        "Sigmoid", "Abs", "Equal", "NotEqual", "Cast",
        // complex parts
        "Real", "Imag", "Conj", "Complex",
        // linear algebra and reductions
        "MatMul", "BatchMatMul", "BiasAdd", "ReduceSum", "ReduceMean",
        // creation and data movement
        "ZerosLike", "OnesLike", "Fill", "Reshape", "Flatten", "Transpose", "ExpandDims", "Squeeze",
        "Concat", "Split", "Stack", "StridedSlice", "StridedSliceGrad", "Gather", "Tile",
        "BroadcastTo", "StopGradient", "Identity", "Select", "UnsortedSegmentSum"};
    return std::find(kComplexOps.begin(), kComplexOps.end(), op.name) != kComplexOps.end();
}

DTypeSet inexactDTypes(const OpDef& op)
{
    return takesComplex(op) ? kFloatDTypes | kComplexDTypes : kFloatDTypes;
}

bool anyComplex(std::span<const Tensor> tensors)
{
    for (const Tensor& t : tensors)
        if (t.defined() && isComplex(t.dtype()))
            return true;
    return false;
}

void checkComplexInputs(const OpCall& call)
{
    if (!anyComplex(call.inputs) || takesComplex(call.op))
        return;
    for (std::size_t i = 0; i < call.inputs.size(); ++i)
        if (call.inputs[i].defined() && isComplex(call.inputs[i].dtype()))
            throwInputDType(call, i, kRealDTypes);
}

} // namespace gradstep
