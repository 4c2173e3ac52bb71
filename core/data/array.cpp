// Arrays of data-pipeline rows. SPDX-License-Identifier: MIT
#include "data/array.h"

#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

namespace gradstep::data {

std::string ElementType::name() const
{
    if (kind == 'b')
        return "bool";
    if (kind == 'U')
        return "str";
    const char* base = kind == 'u' ? "uint" : kind == 'i' ? "int" : "float";
    return base + std::to_string(size * 8);
}

bool ElementType::valid() const
{
    switch (kind) {
    case 'b': return size == 1;
    case 'u':
    case 'i': return size == 1 || size == 2 || size == 4 || size == 8;
    case 'f': return size == 2 || size == 4 || size == 8;
    case 'U': return size == 0;
    default: return false;
    }
}

// BFloat16 has no NumPy element type; the pipeline never holds one.
ElementType elementType(DType dtype)
{
    if (dtype == DType::BFloat16)
        throw ValueError("the data pipeline holds NumPy arrays, and NumPy has no bfloat16: cast to "
                         "bfloat16 after the pipeline (Tensor.astype)");
    if (dtype == DType::Bool)
        return kBool;
    const char kind = isFloating(dtype) ? 'f' : isUnsigned(dtype) ? 'u' : 'i';
    return ElementType{kind, static_cast<int>(itemSize(dtype))};
}

bool hasTensorDType(ElementType type)
{
    for (DType d : kAllDTypes)
        if (d != DType::BFloat16 && elementType(d) == type)
            return true;
    return false;
}

DType tensorDType(ElementType type)
{
    for (DType d : kAllDTypes)
        if (d != DType::BFloat16 && elementType(d) == type)
            return d;
    throw ValueError("a Tensor has no dtype " + type.name() + "; convert the column first (TypeCast)");
}

Array::Array(ElementType type, const Shape& shape)
    : Array(type, shape, std::vector<unsigned char>(static_cast<std::size_t>(shape.numel() * type.size)))
{
}

Array::Array(ElementType type, const Shape& shape, std::vector<unsigned char> bytes)
    : m_type(type), m_shape(shape), m_bytes(std::move(bytes))
{
    if (type == kString)
        throw ValueError("a string array is made from its strings, not from bytes");
    if (!type.valid())
        throw ValueError("unsupported element type, got kind '" + std::string(1, type.kind) + "' of "
                         + std::to_string(type.size) + " bytes");
    const auto need = static_cast<std::size_t>(shape.numel() * type.size);
    if (m_bytes.size() != need)
        throw ValueError("an array of " + type.name() + " " + shape.toString() + " needs " + std::to_string(need)
                         + " bytes, got " + std::to_string(m_bytes.size()));
}

Array::Array(const Shape& shape, std::vector<std::string> strings)
    : m_type(kString), m_shape(shape), m_strings(std::move(strings))
{
    if (static_cast<std::int64_t>(m_strings.size()) != shape.numel())
        throw ValueError("a string array of shape " + shape.toString() + " needs " + std::to_string(shape.numel())
                         + " strings, got " + std::to_string(m_strings.size()));
}

bool Array::sameAs(const Array& other) const
{
    return m_type == other.m_type && m_shape == other.m_shape && m_strings == other.m_strings
           && m_bytes == other.m_bytes;
}

Array Array::fromTensor(const Tensor& tensor)
{
    const auto* first = static_cast<const unsigned char*>(tensor.rawData());
    return {elementType(tensor.dtype()), tensor.shape(), std::vector<unsigned char>(first, first + tensor.nbytes())};
}

float halfToFloat(std::uint16_t bits)
{
    const int sign = bits >> 15, exponent = (bits >> 10) & 0x1F, mantissa = bits & 0x3FF;
    float magnitude;
    if (exponent == 0)
        magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    else if (exponent == 31)
        magnitude = mantissa ? NAN : INFINITY;
    else
        magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
    return sign ? -magnitude : magnitude;
}

double Array::at(std::int64_t i) const
{
    if (isString())
        throw TypeError("a string column has no numeric value: convert it first (text.ToNumber, text.Lookup)");
    const unsigned char* p = m_bytes.data() + i * m_type.size;
    if (m_type.kind == 'f' && m_type.size == 2) {
        std::uint16_t bits;
        std::memcpy(&bits, p, 2);
        return halfToFloat(bits);
    }
    return visitElement(m_type, [&](auto* tag) {
        std::remove_pointer_t<decltype(tag)> v;
        std::memcpy(&v, p, sizeof v);
        return static_cast<double>(v);
    });
}

Array Array::slice(std::int64_t index) const
{
    if (m_shape.rank() == 0 || index < 0 || index >= m_shape[0])
        throw IndexError("row " + std::to_string(index) + " of an array of shape " + m_shape.toString());
    std::vector<std::int64_t> dims(m_shape.begin() + 1, m_shape.end());
    const Shape rowShape(dims);
    if (isString()) {
        const auto count = rowShape.numel();
        const auto first = m_strings.begin() + static_cast<std::ptrdiff_t>(count * index);
        return {rowShape, std::vector<std::string>(first, first + static_cast<std::ptrdiff_t>(count))};
    }
    const auto rowBytes = static_cast<std::size_t>(rowShape.numel() * m_type.size);
    const auto first = m_bytes.begin() + static_cast<std::ptrdiff_t>(rowBytes * static_cast<std::size_t>(index));
    return {m_type, rowShape, std::vector<unsigned char>(first, first + static_cast<std::ptrdiff_t>(rowBytes))};
}

Tensor Array::toTensor() const
{
    if (isString())
        throw TypeError("a string column cannot become a Tensor: map it to numbers first (text.Lookup, "
                        "text.ToNumber)");
    Tensor t = Tensor::empty(m_shape, tensorDType(m_type));
    if (!m_bytes.empty())
        std::memcpy(t.rawData(), m_bytes.data(), m_bytes.size());
    return t;
}

std::string describe(const Array& array) { return array.type().name() + " " + array.shape().toString(); }

} // namespace gradstep::data
