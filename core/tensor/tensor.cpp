// Tensor construction, element access and copies. SPDX-License-Identifier: MIT
#include "tensor/tensor.h"

#include "tensor/dtype_storage.h"

#include "tensor/errors.h"
#include "tensor/memory_pressure.h"

#include <cstring>
#include <new>
#include <string>

namespace gradstep {

Tensor Tensor::empty(const Shape& shape, DType dtype, StoragePages pages)
{
    auto impl = std::make_shared<TensorImpl>();
    impl->shape = shape;
    impl->dtype = dtype;
    std::size_t bytes = 0;
    const bool overflows = __builtin_mul_overflow(static_cast<std::size_t>(shape.numel()), itemSize(dtype), &bytes);
    try {
        if (overflows)
            throw std::bad_alloc();
        try {
            impl->storage = std::make_shared<Storage>(bytes, pages);
        } catch (const std::bad_alloc&) {
            // Memory held only for inspection (the debugger's snapshots) goes first.
            if (!relieveMemoryPressure())
                throw;
            impl->storage = std::make_shared<Storage>(bytes, pages);
        }
    } catch (const std::bad_alloc&) {
        throw AllocationError("cannot allocate " + (overflows ? std::string("more than 2^64") : std::to_string(bytes))
                              + " bytes for a tensor of shape " + shape.toString() + " " + std::string(dtypeName(dtype)));
    }
    return Tensor(std::move(impl));
}

Tensor Tensor::dynamicPlaceholder(std::vector<std::int64_t> dims, DType dtype)
{
    Tensor t = empty(Shape{0}, dtype);
    t.m_impl->dynamicDims = std::make_shared<const std::vector<std::int64_t>>(std::move(dims));
    return t;
}

Tensor Tensor::zeros(const Shape& shape, DType dtype)
{
    Tensor t = empty(shape, dtype);
    std::memset(t.rawData(), 0, t.nbytes());
    return t;
}

Tensor Tensor::full(const Shape& shape, double value, DType dtype)
{
    Tensor t = empty(shape, dtype);
    visitStorageDType(dtype, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        T* p = t.data<T>();
        const T v = convertElement<T>(value);
        for (std::int64_t i = 0, n = t.numel(); i < n; ++i)
            p[i] = v;
    });
    return t;
}

Tensor Tensor::scalar(double value, DType dtype) { return full(Shape{}, value, dtype); }

Tensor Tensor::fromDoubles(const Shape& shape, const std::vector<double>& values, DType dtype)
{
    if (static_cast<std::int64_t>(values.size()) != shape.numel())
        throw ShapeError("tensor of shape " + shape.toString() + " needs " + std::to_string(shape.numel())
                         + " values, got " + std::to_string(values.size()));
    Tensor t = empty(shape, dtype);
    visitStorageDType(dtype, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        T* p = t.data<T>();
        for (std::size_t i = 0; i < values.size(); ++i)
            p[i] = convertElement<T>(values[i]);
    });
    return t;
}

void Tensor::checkDType(DType expected) const
{
    if (dtype() != expected)
        throw DTypeError("tensor has dtype " + std::string(dtypeName(dtype())) + ", accessed as "
                         + std::string(dtypeName(expected)));
}

double Tensor::at(std::int64_t i) const
{
    if (i < 0 || i >= numel())
        throw IndexError("index " + std::to_string(i) + " is out of range for a tensor of "
                         + std::to_string(numel()) + " elements");
    return visitStorageDType(dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        return convertElement<double>(static_cast<const T*>(rawData())[i]);
    });
}

double Tensor::item() const
{
    if (numel() != 1)
        throw ValueError("item() needs a tensor with one element, got shape " + shape().toString());
    return at(0);
}

std::vector<double> Tensor::toDoubles() const
{
    std::vector<double> out(static_cast<std::size_t>(numel()));
    visitStorageDType(dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* p = static_cast<const T*>(rawData());
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = convertElement<double>(p[i]);
    });
    return out;
}

Tensor Tensor::detach() const
{
    auto impl = std::make_shared<TensorImpl>();
    impl->shape = shape();
    impl->dtype = dtype();
    impl->storage = m_impl->storage;
    return Tensor(std::move(impl));
}

Tensor Tensor::clone(StoragePages pages) const
{
    Tensor t = empty(shape(), dtype(), pages);
    if (nbytes())
        std::memcpy(t.rawData(), rawData(), nbytes());
    return t;
}

Tensor Tensor::viewAs(const Shape& newShape) const
{
    if (newShape.numel() != numel())
        throw ShapeError("cannot view a tensor of shape " + shape().toString() + " as "
                         + newShape.toString());
    Tensor t = detach();
    t.m_impl->shape = newShape;
    return t;
}

void Tensor::copyFrom(const Tensor& src)
{
    if (!(src.shape() == shape()) || src.dtype() != dtype())
        throw ShapeError("copy needs equal shape and dtype: destination " + shape().toString() + " "
                         + std::string(dtypeName(dtype())) + ", source " + src.shape().toString() + " "
                         + std::string(dtypeName(src.dtype())));
    if (nbytes() && rawData() != src.rawData())
        std::memcpy(rawData(), src.rawData(), nbytes());
}

} // namespace gradstep
