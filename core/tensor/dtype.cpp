// Element types of a Tensor and MindSpore 2.2's promotion rule between them.
// SPDX-License-Identifier: MIT
#include "tensor/dtype.h"

#include "tensor/errors.h"

#include <string>

namespace gradstep {

std::size_t itemSize(DType dtype)
{
    switch (dtype) {
    case DType::Bool:
    case DType::Int8:
    case DType::UInt8: return 1;
    case DType::Int16:
    case DType::UInt16:
    case DType::Float16:
    case DType::BFloat16: return 2;
    case DType::Int32:
    case DType::UInt32:
    case DType::Float32: return 4;
    case DType::Int64:
    case DType::UInt64:
    case DType::Float64:
    case DType::Complex64: return 8;
    case DType::Complex128: return 16;
    }
    return 8;
}

std::string_view dtypeName(DType dtype)
{
    switch (dtype) {
    case DType::Bool: return "Bool";
    case DType::Int8: return "Int8";
    case DType::Int16: return "Int16";
    case DType::Int32: return "Int32";
    case DType::Int64: return "Int64";
    case DType::UInt8: return "UInt8";
    case DType::UInt16: return "UInt16";
    case DType::UInt32: return "UInt32";
    case DType::UInt64: return "UInt64";
    case DType::Float16: return "Float16";
    case DType::BFloat16: return "BFloat16";
    case DType::Float32: return "Float32";
    case DType::Float64: return "Float64";
    case DType::Complex64: return "Complex64";
    case DType::Complex128: return "Complex128";
    }
    return "Unknown";
}

std::string_view dtypeLowerName(DType dtype)
{
    switch (dtype) {
    case DType::Bool: return "bool";
    case DType::Int8: return "int8";
    case DType::Int16: return "int16";
    case DType::Int32: return "int32";
    case DType::Int64: return "int64";
    case DType::UInt8: return "uint8";
    case DType::UInt16: return "uint16";
    case DType::UInt32: return "uint32";
    case DType::UInt64: return "uint64";
    case DType::Float16: return "float16";
    case DType::BFloat16: return "bfloat16";
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Complex64: return "complex64";
    case DType::Complex128: return "complex128";
    }
    return "unknown";
}

bool isFloating(DType dtype)
{
    return dtype == DType::Float32 || dtype == DType::Float64 || dtype == DType::Float16
           || dtype == DType::BFloat16;
}

bool isUnsigned(DType dtype)
{
    return dtype == DType::UInt8 || dtype == DType::UInt16 || dtype == DType::UInt32
           || dtype == DType::UInt64;
}

bool isIntegral(DType dtype) { return !isFloating(dtype) && !isComplex(dtype) && dtype != DType::Bool; }

DType complexPart(DType dtype)
{
    if (dtype == DType::Complex64)
        return DType::Float32;
    return dtype == DType::Complex128 ? DType::Float64 : dtype;
}

DType complexOf(DType part) { return part == DType::Float64 ? DType::Complex128 : DType::Complex64; }

DType computeDType(DType dtype)
{
    switch (dtype) {
    case DType::Float16:
    case DType::BFloat16: return DType::Float32;
    case DType::Int8:
    case DType::Int16:
    case DType::UInt8:
    case DType::UInt16: return DType::Int32;
    case DType::UInt32:
    case DType::UInt64: return DType::Int64;
    default: return dtype;
    }
}

namespace {
// Rank within a kind: integers by width, signed before unsigned of the same width (MindSpore's
// type_id order); floats by width with BFloat16 above Float16.
int rankOf(DType d)
{
    switch (d) {
    case DType::Bool: return 0;
    case DType::Int8: return 1;
    case DType::UInt8: return 2;
    case DType::Int16: return 3;
    case DType::UInt16: return 4;
    case DType::Int32: return 5;
    case DType::UInt32: return 6;
    case DType::Int64: return 7;
    case DType::UInt64: return 8;
    case DType::Float16: return 9;
    case DType::BFloat16: return 10;
    case DType::Float32: return 11;
    case DType::Float64: return 12;
    case DType::Complex64: return 13;
    case DType::Complex128: return 14;
    }
    return 0;
}
} // namespace

// MindSpore 2.2's documented rule (docs: "Implicit Type Conversion"): priority bool < uint8 <
// int8 < int16 < int32 < int64 < float16 < float32 < float64, the higher one wins, and int8 with
// uint8 gives int16. Its table leaves out uint16/32/64 and bfloat16; they follow the same
// pattern: a signed integer beats an unsigned one only when wider, otherwise the next wider
// signed type results (Int64 at most); bfloat16 ranks above float16, and the two together give
// float32 (neither holds the other's values).
DType promote(DType a, DType b)
{
    if (a == b)
        return a;
    if (a == DType::Bool)
        return b;
    if (b == DType::Bool)
        return a;
    // As NumPy: the complex result holds the real operand's values exactly when it can
    // (Complex64 with Float64 is Complex128); integers meet complex as MindSpore ranks them,
    // below every float, so Int64 with Complex64 stays Complex64.
    if (isComplex(a) || isComplex(b)) {
        const bool wide = a == DType::Complex128 || b == DType::Complex128 || a == DType::Float64
                          || b == DType::Float64;
        return wide ? DType::Complex128 : DType::Complex64;
    }
    const bool fa = isFloating(a);
    const bool fb = isFloating(b);
    if (fa != fb)
        return fa ? a : b;
    if (fa) {
        const bool halfPair = (a == DType::Float16 && b == DType::BFloat16)
                              || (a == DType::BFloat16 && b == DType::Float16);
        if (halfPair)
            return DType::Float32;
        return rankOf(a) > rankOf(b) ? a : b;
    }
    const bool ua = isUnsigned(a);
    const bool ub = isUnsigned(b);
    if (ua == ub)
        return itemSize(a) >= itemSize(b) ? a : b;
    const DType s = ua ? b : a;
    const DType u = ua ? a : b;
    if (itemSize(s) > itemSize(u))
        return s;
    switch (itemSize(u)) {
    case 1: return DType::Int16;
    case 2: return DType::Int32;
    default: return DType::Int64;
    }
}

void throwNotComputeDType(DType dtype)
{
    if (isComplex(dtype))
        throw DTypeError("internal: a kernel without complex support was reached with a "
                         + std::string(dtypeName(dtype)) + " tensor");
    throw DTypeError("internal: a kernel was reached with storage dtype " + std::string(dtypeName(dtype))
                     + " instead of its compute dtype " + std::string(dtypeName(computeDType(dtype))));
}

} // namespace gradstep
