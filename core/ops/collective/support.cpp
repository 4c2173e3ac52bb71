// What the collective kernels share: dtypes, reduce ops, groups, half-precision widening.
// SPDX-License-Identifier: MIT
#include "ops/collective/defs.h"

#include "ops/collective_ops.h"
#include "ops/dispatch.h"
#include "tensor/half_convert.h"

#include <vector>

namespace gradstep::collective {

dist::ElementType elementType(const OpCall& call, DType dtype)
{
    switch (dtype) {
    case DType::Float32: return dist::ElementType::Float32;
    case DType::Float64: return dist::ElementType::Float64;
    case DType::Int8: return dist::ElementType::Int8;
    case DType::UInt8: return dist::ElementType::UInt8;
    case DType::Int16: return dist::ElementType::Int16;
    case DType::Int32: return dist::ElementType::Int32;
    case DType::Int64: return dist::ElementType::Int64;
    case DType::Bool: return dist::ElementType::Bool;
    case DType::Float16: return dist::ElementType::Int16; // moved as bits; reductions widen first
    default: break;
    }
    throwInputDType(call, 0, dtypeBit(DType::Float16) | dtypeBit(DType::Float32) | dtypeBit(DType::Float64)
                                 | dtypeBit(DType::Int8) | dtypeBit(DType::UInt8) | dtypeBit(DType::Int16)
                                 | dtypeBit(DType::Int32) | dtypeBit(DType::Int64) | dtypeBit(DType::Bool));
}

dist::ReduceOp reduceOp(const OpCall& call)
{
    const std::string op = call.attrs.getString("op", "sum");
    if (op == "sum")
        return dist::ReduceOp::Sum;
    if (op == "max")
        return dist::ReduceOp::Max;
    if (op == "min")
        return dist::ReduceOp::Min;
    if (op == "prod")
        return dist::ReduceOp::Prod;
    throwValueError(call, "the 'op' must be one of 'sum', 'max', 'min' or 'prod', but got '" + op + "'");
}

std::string group(const Attrs& attrs) { return attrs.getString("group", kWorldGroup); }

std::int64_t groupSize(const OpCall& call) { return dist::size(group(call.attrs)); }

void reduceInto(const OpCall& call, const Tensor& x, Tensor& out, bool scatter)
{
    const dist::ReduceOp op = reduceOp(call);
    const std::string name = group(call.attrs);
    const char* opName = call.op.name.data();
    const std::int64_t count = out.numel();
    if (x.dtype() != DType::Float16) {
        const dist::ElementType type = elementType(call, x.dtype());
        if (scatter)
            dist::reduceScatter(x.rawData(), out.rawData(), count, type, op, name, opName);
        else
            dist::allReduce(x.rawData(), out.rawData(), count, type, op, name, opName);
        return;
    }
    // MPI has no half type: reduce in float32 and round once at the end.
    std::vector<float> wide(static_cast<std::size_t>(x.numel())), result(static_cast<std::size_t>(count));
    halfToFloat(static_cast<const Eigen::half*>(x.rawData()), wide.data(), x.numel());
    if (scatter)
        dist::reduceScatter(wide.data(), result.data(), count, dist::ElementType::Float32, op, name, opName);
    else
        dist::allReduce(wide.data(), result.data(), count, dist::ElementType::Float32, op, name, opName);
    floatToHalf(result.data(), static_cast<Eigen::half*>(out.rawData()), count);
}

} // namespace gradstep::collective
