// One column value of a data-pipeline row: a NumPy-style array of any fixed-size numeric element
// type, or of strings. Data sets carry what their source gave (MNIST's uint8 pixels, a generator's
// float16, a text file's lines) until a transform converts it; Tensor's five dtypes are a
// training-side restriction.
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/shape.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gradstep::data {

/// A NumPy element type: kind 'b' (bool), 'u' (unsigned), 'i' (signed) or 'f' (float) and its
/// size in bytes, or kind 'U' (string) of size 0. Valid: b1, u1 u2 u4 u8, i1 i2 i4 i8, f2 f4 f8, U0.
/// Strings are variable-length UTF-8, held apart from the bytes of numeric arrays (MindSpore's
/// string tensors; NumPy's fixed-width str is only how they cross into Python).
struct ElementType {
    char kind = 'f';
    int size = 4;

    friend bool operator==(ElementType, ElementType) = default;
    /// NumPy's name: "uint8", "float32", "bool"; "str" for strings.
    std::string name() const;
    bool valid() const;
};

inline constexpr ElementType kBool{'b', 1};
inline constexpr ElementType kUInt8{'u', 1};
inline constexpr ElementType kUInt32{'u', 4};
inline constexpr ElementType kInt32{'i', 4};
inline constexpr ElementType kInt64{'i', 8};
inline constexpr ElementType kFloat32{'f', 4};
inline constexpr ElementType kFloat64{'f', 8};
inline constexpr ElementType kString{'U', 0};

/// The element type of a tensor dtype, and back (nullopt-like false when Tensor lacks it).
ElementType elementType(DType dtype);
bool hasTensorDType(ElementType type);
DType tensorDType(ElementType type);

class Array {
public:
    Array() = default;
    /// Zero-filled.
    Array(ElementType type, const Shape& shape);
    /// Takes `bytes` (row-major, exactly numel * size of them; ValueError otherwise).
    Array(ElementType type, const Shape& shape, std::vector<unsigned char> bytes);
    /// An array of strings (UTF-8), row-major, exactly numel of them (ValueError otherwise).
    Array(const Shape& shape, std::vector<std::string> strings);
    /// A copy of a tensor's values.
    static Array fromTensor(const Tensor& tensor);

    ElementType type() const { return m_type; }
    const Shape& shape() const { return m_shape; }
    std::int64_t numel() const { return m_shape.numel(); }
    std::size_t nbytes() const { return m_bytes.size(); }
    const unsigned char* bytes() const { return m_bytes.data(); }
    unsigned char* bytes() { return m_bytes.data(); }
    bool isString() const { return m_type == kString; }
    /// The elements of a string array (empty for numeric arrays).
    const std::vector<std::string>& strings() const { return m_strings; }
    /// Same type, shape and elements.
    bool sameAs(const Array& other) const;

    /// Element i (flat, row-major) as a double; float16 included (TypeError for strings).
    double at(std::int64_t i) const;
    /// Row `index` along axis 0 (an array of one rank less).
    Array slice(std::int64_t index) const;
    /// A Tensor holding a copy (TypeError for strings, ValueError for other element types a
    /// Tensor lacks).
    Tensor toTensor() const;

private:
    ElementType m_type;
    Shape m_shape;
    std::vector<unsigned char> m_bytes;
    std::vector<std::string> m_strings;
};

/// "uint8 [28, 28, 1]" for diagnostics.
std::string describe(const Array& array);

/// Calls fn with a null pointer of the C++ type for `type` (every valid type except float16 and
/// strings).
template <class Fn> decltype(auto) visitElement(ElementType type, Fn&& fn)
{
    switch (type.kind) {
    case 'b': return fn(static_cast<bool*>(nullptr));
    case 'u':
        if (type.size == 1) return fn(static_cast<std::uint8_t*>(nullptr));
        if (type.size == 2) return fn(static_cast<std::uint16_t*>(nullptr));
        if (type.size == 4) return fn(static_cast<std::uint32_t*>(nullptr));
        return fn(static_cast<std::uint64_t*>(nullptr));
    case 'i':
        if (type.size == 1) return fn(static_cast<std::int8_t*>(nullptr));
        if (type.size == 2) return fn(static_cast<std::int16_t*>(nullptr));
        if (type.size == 4) return fn(static_cast<std::int32_t*>(nullptr));
        return fn(static_cast<std::int64_t*>(nullptr));
    default: break;
    }
    if (type.size == 4)
        return fn(static_cast<float*>(nullptr));
    return fn(static_cast<double*>(nullptr));
}

/// IEEE half-precision bits to float (subnormals, infinities and NaN included).
float halfToFloat(std::uint16_t bits);

} // namespace gradstep::data
