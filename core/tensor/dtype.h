// Element types of a Tensor (every MindSpore number dtype) and the promotion rule between them.
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gradstep {

/// The first five are the compute dtypes every kernel is written for; the next eight are storage
/// dtypes that op dispatch widens to a compute dtype (computeDType) and narrows back. The two
/// complex dtypes are neither: only ops with complex kernels take them (ops/complex_support.h),
/// every other op refuses them before its kernel could read their bytes as real numbers.
enum class DType : std::uint8_t {
    Bool, Int32, Int64, Float32, Float64,
    Int8, Int16, UInt8, UInt16, UInt32, UInt64, Float16, BFloat16,
    Complex64, Complex128,
};

inline constexpr int kDTypeCount = 15;
/// Every dtype in MindSpore's promotion order (bool, integers by width, floats by width, complex).
inline constexpr DType kAllDTypes[kDTypeCount] = {
    DType::Bool,   DType::UInt8,   DType::Int8,    DType::Int16,   DType::UInt16,
    DType::Int32,  DType::UInt32,  DType::Int64,   DType::UInt64,  DType::Float16,
    DType::BFloat16, DType::Float32, DType::Float64, DType::Complex64, DType::Complex128};

/// A set of dtypes as a bit mask (bit = the enum value).
using DTypeSet = std::uint32_t;
constexpr DTypeSet dtypeBit(DType d) { return DTypeSet{1} << static_cast<unsigned>(d); }
inline constexpr DTypeSet kComputeDTypes = dtypeBit(DType::Bool) | dtypeBit(DType::Int32)
                                           | dtypeBit(DType::Int64) | dtypeBit(DType::Float32)
                                           | dtypeBit(DType::Float64);
constexpr bool isComputeDType(DType d) { return (kComputeDTypes & dtypeBit(d)) != 0; }

constexpr bool isComplex(DType d) { return d == DType::Complex64 || d == DType::Complex128; }
inline constexpr DTypeSet kComplexDTypes = dtypeBit(DType::Complex64) | dtypeBit(DType::Complex128);
/// Every dtype but the complex ones.
inline constexpr DTypeSet kRealDTypes = ((DTypeSet{1} << kDTypeCount) - 1) & ~kComplexDTypes;

std::size_t itemSize(DType dtype);
/// MindSpore's spelling: Bool, Int8, UInt8, Int32, Float16, BFloat16, ...
std::string_view dtypeName(DType dtype);
/// The lowercase spelling: bool, int8, uint8, float16, bfloat16, complex64, ... (NumPy's names, the
/// strings MindSpore's aot custom ops receive).
std::string_view dtypeLowerName(DType dtype);
/// Real floating dtypes only (complex ones are not).
bool isFloating(DType dtype);
/// The dtype of a complex dtype's real and imaginary parts (Float32 for Complex64); others: themselves.
DType complexPart(DType dtype);
/// The complex dtype whose parts have dtype `part` (Complex128 for Float64, Complex64 otherwise).
DType complexOf(DType part);
/// Signed and unsigned integers (not Bool).
bool isIntegral(DType dtype);
bool isUnsigned(DType dtype);
/// The dtype kernels compute a storage dtype in: Float32 for Float16/BFloat16, Int32 for the
/// 8/16-bit integers, Int64 for UInt32/UInt64 (exact for UInt32; UInt64 only where the op's
/// result bits do not depend on signedness, see ops/compute_dtype.h). Itself for compute dtypes.
DType computeDType(DType dtype);
/// MindSpore differentiates through every number dtype (an integer tensor's gradient is an
/// integer tensor, and Cast's backward casts the gradient back to the input's dtype); only Bool
/// tensors carry no gradient.
constexpr bool carriesGradient(DType dtype) { return dtype != DType::Bool; }
/// MindSpore 2.2's result dtype of a tensor-tensor op (see dtype.cpp for the table).
/// Complex with anything is complex, Complex128 when either side holds 64-bit floats.
DType promote(DType a, DType b);

template <class T> struct DTypeOf;
template <> struct DTypeOf<bool> { static constexpr DType value = DType::Bool; };
template <> struct DTypeOf<std::int8_t> { static constexpr DType value = DType::Int8; };
template <> struct DTypeOf<std::int16_t> { static constexpr DType value = DType::Int16; };
template <> struct DTypeOf<std::int32_t> { static constexpr DType value = DType::Int32; };
template <> struct DTypeOf<std::int64_t> { static constexpr DType value = DType::Int64; };
template <> struct DTypeOf<std::uint8_t> { static constexpr DType value = DType::UInt8; };
template <> struct DTypeOf<std::uint16_t> { static constexpr DType value = DType::UInt16; };
template <> struct DTypeOf<std::uint32_t> { static constexpr DType value = DType::UInt32; };
template <> struct DTypeOf<std::uint64_t> { static constexpr DType value = DType::UInt64; };
template <> struct DTypeOf<float> { static constexpr DType value = DType::Float32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::Float64; };

/// Thrown (as DTypeError) when a compute-dtype visitor meets a storage or complex dtype: a
/// kernel was reached without dispatch's widening (or an op without complex kernels was handed
/// a complex tensor), which would otherwise read the bytes as another type.
[[noreturn]] void throwNotComputeDType(DType dtype);

// Calls fn with a value of the C++ element type matching a compute dtype (as a null pointer
// tag). Storage dtypes (Int8, Float16, ...) and complex dtypes throw: see tensor/dtype_storage.h
// and tensor/complex.h for those.
template <class Fn> decltype(auto) visitDType(DType dtype, Fn&& fn)
{
    switch (dtype) {
    case DType::Bool: return fn(static_cast<bool*>(nullptr));
    case DType::Int32: return fn(static_cast<std::int32_t*>(nullptr));
    case DType::Int64: return fn(static_cast<std::int64_t*>(nullptr));
    case DType::Float32: return fn(static_cast<float*>(nullptr));
    case DType::Float64: return fn(static_cast<double*>(nullptr));
    default: break;
    }
    throwNotComputeDType(dtype);
}

template <class Fn> decltype(auto) visitFloat(DType dtype, Fn&& fn)
{
    if (dtype == DType::Float64)
        return fn(static_cast<double*>(nullptr));
    if (dtype != DType::Float32)
        throwNotComputeDType(dtype);
    return fn(static_cast<float*>(nullptr));
}

} // namespace gradstep
