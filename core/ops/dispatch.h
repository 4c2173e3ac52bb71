// Runs one op eagerly: arity check, shape rule, kernel, tape recording and observer events.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

#include <initializer_list>

namespace gradstep {

const Attrs& noAttrs();

OutputList callOp(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs = noAttrs());
/// For single-output ops.
Tensor callOp1(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs = noAttrs());
inline Tensor callOp1(const OpDef& op, std::initializer_list<Tensor> inputs, const Attrs& attrs = noAttrs())
{
    return callOp1(op, std::span<const Tensor>(inputs.begin(), inputs.size()), attrs);
}

/// Throws the error type E with "for 'Op', <message>; inputs ...; attrs ..." so every op
/// reports the same way.
[[noreturn]] void throwShapeError(const OpCall& call, const std::string& message);
[[noreturn]] void throwDTypeError(const OpCall& call, const std::string& message);
[[noreturn]] void throwValueError(const OpCall& call, const std::string& message);

/// Every real float dtype, every real number dtype (not Bool, not complex), and the dtypes
/// indices may have.
inline constexpr DTypeSet kFloatDTypes = dtypeBit(DType::Float16) | dtypeBit(DType::BFloat16)
                                         | dtypeBit(DType::Float32) | dtypeBit(DType::Float64);
inline constexpr DTypeSet kNumberDTypes = kRealDTypes & ~dtypeBit(DType::Bool);
inline constexpr DTypeSet kIndexDTypes = dtypeBit(DType::Int32) | dtypeBit(DType::Int64);

/// MindSpore's name of input i of an op ('x', 'y', 'condition', 'indices', ...).
std::string inputName(const OpDef& op, std::size_t i);
/// MindSpore's TypeError (a DTypeError) for an input whose dtype the op does not take:
/// "For 'Sqrt', the type of 'x' should be Tensor[Float16, BFloat16, Float32, Float64], but got
/// Tensor[Int8]."
[[noreturn]] void throwInputDType(const OpCall& call, std::size_t input, DTypeSet allowed);
/// Throws throwInputDType's error unless input i's dtype is in `allowed`.
void requireInputDType(const OpCall& call, std::size_t input, DTypeSet allowed);

} // namespace gradstep
