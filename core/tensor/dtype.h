// Element types of a Tensor and the promotion rule between them. SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gradstep {

enum class DType : std::uint8_t { Bool, Int32, Int64, Float32, Float64 };

std::size_t itemSize(DType dtype);
/// MindSpore's spelling: Bool, Int32, Int64, Float32, Float64.
std::string_view dtypeName(DType dtype);
bool isFloating(DType dtype);
bool isIntegral(DType dtype);
/// The wider of two dtypes (bool < int32 < int64 < float32 < float64), as MindSpore promotes.
DType promote(DType a, DType b);

template <class T> struct DTypeOf;
template <> struct DTypeOf<bool> { static constexpr DType value = DType::Bool; };
template <> struct DTypeOf<std::int32_t> { static constexpr DType value = DType::Int32; };
template <> struct DTypeOf<std::int64_t> { static constexpr DType value = DType::Int64; };
template <> struct DTypeOf<float> { static constexpr DType value = DType::Float32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::Float64; };

// Calls fn with a value of the C++ element type matching dtype (as a null pointer tag).
template <class Fn> decltype(auto) visitDType(DType dtype, Fn&& fn)
{
    switch (dtype) {
    case DType::Bool: return fn(static_cast<bool*>(nullptr));
    case DType::Int32: return fn(static_cast<std::int32_t*>(nullptr));
    case DType::Int64: return fn(static_cast<std::int64_t*>(nullptr));
    case DType::Float32: return fn(static_cast<float*>(nullptr));
    case DType::Float64: break;
    }
    return fn(static_cast<double*>(nullptr));
}

template <class Fn> decltype(auto) visitFloat(DType dtype, Fn&& fn)
{
    if (dtype == DType::Float64)
        return fn(static_cast<double*>(nullptr));
    return fn(static_cast<float*>(nullptr));
}

} // namespace gradstep
