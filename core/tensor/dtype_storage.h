// Every dtype's C++ storage type (Eigen::half and Eigen::bfloat16 for the 16-bit floats,
// std::complex for the complex ones) and the
// element conversion between any two of them, for code that moves or converts values without
// computing on them: casts, element access, printing, NumPy. Kernels use visitDType instead.
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/dtype.h"

#include <Eigen/Core>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace gradstep {

template <> struct DTypeOf<Eigen::half> { static constexpr DType value = DType::Float16; };
template <> struct DTypeOf<Eigen::bfloat16> { static constexpr DType value = DType::BFloat16; };

template <> struct DTypeOf<std::complex<float>> { static constexpr DType value = DType::Complex64; };
template <> struct DTypeOf<std::complex<double>> { static constexpr DType value = DType::Complex128; };

template <class T> struct IsComplexT : std::false_type {};
template <class R> struct IsComplexT<std::complex<R>> : std::true_type {};
template <class T> constexpr bool kIsComplex = IsComplexT<T>::value;

template <class T>
constexpr bool kIsHalfFloat = std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>;
template <class T> constexpr bool kIsFloatStorage = std::is_floating_point_v<T> || kIsHalfFloat<T>;
template <class T> constexpr bool kIsIntStorage = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <class Fn> decltype(auto) visitStorageDType(DType dtype, Fn&& fn)
{
    switch (dtype) {
    case DType::Bool: return fn(static_cast<bool*>(nullptr));
    case DType::Int8: return fn(static_cast<std::int8_t*>(nullptr));
    case DType::Int16: return fn(static_cast<std::int16_t*>(nullptr));
    case DType::Int32: return fn(static_cast<std::int32_t*>(nullptr));
    case DType::Int64: return fn(static_cast<std::int64_t*>(nullptr));
    case DType::UInt8: return fn(static_cast<std::uint8_t*>(nullptr));
    case DType::UInt16: return fn(static_cast<std::uint16_t*>(nullptr));
    case DType::UInt32: return fn(static_cast<std::uint32_t*>(nullptr));
    case DType::UInt64: return fn(static_cast<std::uint64_t*>(nullptr));
    case DType::Float16: return fn(static_cast<Eigen::half*>(nullptr));
    case DType::BFloat16: return fn(static_cast<Eigen::bfloat16*>(nullptr));
    case DType::Float32: return fn(static_cast<float*>(nullptr));
    case DType::Complex64: return fn(static_cast<std::complex<float>*>(nullptr));
    case DType::Complex128: return fn(static_cast<std::complex<double>*>(nullptr));
    case DType::Float64: break;
    }
    return fn(static_cast<double*>(nullptr));
}

/// For complex kernels: fn with std::complex<float> or std::complex<double>; real dtypes throw.
template <class Fn> decltype(auto) visitComplex(DType dtype, Fn&& fn)
{
    if (dtype == DType::Complex128)
        return fn(static_cast<std::complex<double>*>(nullptr));
    if (dtype != DType::Complex64)
        throwNotComputeDType(dtype);
    return fn(static_cast<std::complex<float>*>(nullptr));
}

/// For kernels written for float and complex dtypes alike (matrix products).
template <class Fn> decltype(auto) visitFloatOrComplex(DType dtype, Fn&& fn)
{
    if (isComplex(dtype))
        return visitComplex(dtype, fn);
    return visitFloat(dtype, fn);
}

/// For matrix products: float and complex dtypes, and the integer compute dtypes (Int8, Int16 and
/// UInt8 arrive widened to Int32).
template <class Fn> decltype(auto) visitMatmulDType(DType dtype, Fn&& fn)
{
    if (dtype == DType::Int32)
        return fn(static_cast<std::int32_t*>(nullptr));
    if (dtype == DType::Int64)
        return fn(static_cast<std::int64_t*>(nullptr));
    return visitFloatOrComplex(dtype, fn);
}

/// For kernels that only move elements (transpose, tile, slices, fills): the compute dtypes
/// and the complex ones.
template <class Fn> decltype(auto) visitDataDType(DType dtype, Fn&& fn)
{
    if (isComplex(dtype))
        return visitComplex(dtype, fn);
    return visitDType(dtype, fn);
}

namespace detail {
// What x86-64 code for static_cast<int32/int64>(double) yields: truncation, and the "integer
// indefinite" value (the type's minimum) for NaN and out-of-range values, where C++ says UB.
template <class I> I x86Truncate(double v)
{
    constexpr double lo = static_cast<double>(std::numeric_limits<I>::min());
    if (!(v > lo - 1.0 && v < -lo))
        return std::numeric_limits<I>::min();
    return static_cast<I>(v);
}

// MindSpore's CPU Cast is a static_cast loop; this reproduces what that loop computes on x86-64
// (GCC): 8/16-bit targets truncate to int32 and keep the low bits, UInt32 truncates to int64 and
// keeps the low bits, UInt64 subtracts 2^63 first for values at or above it.
template <class Out> Out floatToInt(double v)
{
    if constexpr (sizeof(Out) < 4)
        return static_cast<Out>(static_cast<std::uint32_t>(x86Truncate<std::int32_t>(v)));
    else if constexpr (std::is_same_v<Out, std::int32_t>)
        return x86Truncate<std::int32_t>(v);
    else if constexpr (std::is_same_v<Out, std::uint32_t>)
        return static_cast<Out>(static_cast<std::uint64_t>(x86Truncate<std::int64_t>(v)));
    else if constexpr (std::is_same_v<Out, std::int64_t>)
        return x86Truncate<std::int64_t>(v);
    else {
        constexpr double two63 = 9223372036854775808.0;
        if (!(v >= two63))
            return static_cast<std::uint64_t>(x86Truncate<std::int64_t>(v));
        return static_cast<std::uint64_t>(x86Truncate<std::int64_t>(v - two63)) ^ (std::uint64_t{1} << 63);
    }
}
} // namespace detail

/// One element converted as MindSpore's CPU Cast converts it: float to 16-bit float rounds to
/// nearest even (overflow to inf, NaN stays NaN, subnormals kept); 16-bit floats widen through
/// float; integers wrap (two's complement); float to integer as detail::floatToInt; to Bool is
/// "nonzero" (NaN is true). Complex to real keeps the real part (MindSpore's Cast); real to
/// complex has imaginary part 0; complex to Bool is "either part nonzero".
template <class Out, class In> Out convertElement(In v)
{
    if constexpr (std::is_same_v<Out, In>)
        return v;
    else if constexpr (kIsComplex<In> && kIsComplex<Out>)
        return Out(static_cast<typename Out::value_type>(v.real()), static_cast<typename Out::value_type>(v.imag()));
    else if constexpr (kIsComplex<In> && std::is_same_v<Out, bool>)
        return v != In(0);
    else if constexpr (kIsComplex<In>)
        return convertElement<Out>(v.real());
    else if constexpr (kIsComplex<Out>)
        return Out(convertElement<typename Out::value_type>(v), typename Out::value_type(0));
    else if constexpr (kIsHalfFloat<In>)
        return convertElement<Out>(static_cast<float>(v));
    else if constexpr (std::is_same_v<Out, bool>)
        return v != In(0);
    else if constexpr (kIsHalfFloat<Out>)
        return Out(static_cast<float>(v));
    else if constexpr (kIsIntStorage<Out> && std::is_floating_point_v<In>)
        return detail::floatToInt<Out>(static_cast<double>(v));
    else
        return static_cast<Out>(v);
}

} // namespace gradstep
