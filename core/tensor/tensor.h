// Tensor: a shared handle to a contiguous row-major buffer with a runtime shape and dtype, plus
// the autodiff link to the node that produced it. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/dtype.h"
#include "tensor/errors.h"
#include "tensor/shape.h"
#include "tensor/storage.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gradstep {

class Node;

/// The shared state behind Tensor handles. Autodiff fields are set only while recording.
struct TensorImpl {
    Shape shape;
    DType dtype = DType::Float32;
    std::shared_ptr<Storage> storage;
    /// Node that produced this tensor on a tape (or the leaf node of a Parameter).
    std::shared_ptr<Node> gradFn;
    std::uint32_t outputIndex = 0;
    /// Parameters require grad permanently; recorded outputs inherit it from their inputs.
    bool requiresGrad = false;
    /// Set only on MindSpore's dynamic-shape placeholders (Tensor(shape=[None, 3], dtype=...)):
    /// MindSpore's dims with -1 for an unknown dimension, or [-2] for an unknown rank. They hold
    /// no values (shape [0] here) and only describe inputs to Cell.set_inputs; no op takes them.
    std::shared_ptr<const std::vector<std::int64_t>> dynamicDims;
};

class Tensor {
public:
    Tensor() = default;
    explicit Tensor(std::shared_ptr<TensorImpl> impl) : m_impl(std::move(impl)) {}

    /// Uninitialised storage; every kernel writes all of its outputs. AllocationError (naming
    /// the bytes, shape and dtype) when the memory cannot be had.
    static Tensor empty(const Shape& shape, DType dtype = DType::Float32,
                        StoragePages pages = StoragePages::Shared);
    static Tensor zeros(const Shape& shape, DType dtype = DType::Float32);
    static Tensor full(const Shape& shape, double value, DType dtype = DType::Float32);
    static Tensor scalar(double value, DType dtype = DType::Float32);
    template <class T> static Tensor fromVector(const Shape& shape, const std::vector<T>& values);
    /// Values given as doubles, converted to dtype.
    static Tensor fromDoubles(const Shape& shape, const std::vector<double>& values,
                              DType dtype = DType::Float32);

    /// A dynamic-shape placeholder of the given MindSpore dims (see TensorImpl::dynamicDims).
    static Tensor dynamicPlaceholder(std::vector<std::int64_t> dims, DType dtype);

    bool defined() const { return m_impl != nullptr; }
    bool isDynamicPlaceholder() const { return m_impl && m_impl->dynamicDims; }
    const Shape& shape() const { return m_impl->shape; }
    DType dtype() const { return m_impl->dtype; }
    int rank() const { return m_impl->shape.rank(); }
    std::int64_t numel() const { return m_impl->shape.numel(); }
    std::size_t nbytes() const { return static_cast<std::size_t>(numel()) * itemSize(dtype()); }

    void* rawData() { return m_impl->storage->data(); }
    const void* rawData() const { return m_impl->storage->data(); }
    template <class T> T* data();
    template <class T> const T* data() const;

    /// Element i (flat, row-major) converted to double.
    double at(std::int64_t i) const;
    /// The single element as a double; ValueError unless numel() == 1.
    double item() const;
    std::vector<double> toDoubles() const;

    /// A handle to the same storage with no autodiff link (MindSpore's stop_gradient without a node).
    Tensor detach() const;
    /// A deep copy with no autodiff link; `pages` Own for a copy kept long (storage.h).
    Tensor clone(StoragePages pages = StoragePages::Shared) const;
    /// Same storage viewed with another shape of equal numel (no autodiff link).
    Tensor viewAs(const Shape& shape) const;
    /// Copies values from src (same shape and dtype) into this tensor's storage.
    void copyFrom(const Tensor& src);

    bool requiresGrad() const { return m_impl && m_impl->requiresGrad; }
    const std::shared_ptr<Node>& gradFn() const { return m_impl->gradFn; }
    std::uint32_t outputIndex() const { return m_impl->outputIndex; }
    TensorImpl* impl() const { return m_impl.get(); }
    bool sameAs(const Tensor& other) const { return m_impl == other.m_impl; }
    /// True when this handle is the only owner of its state (releasing it destroys the state).
    bool soleOwner() const { return m_impl.use_count() == 1; }

    /// MindSpore's repr: Tensor(shape=[2, 3], dtype=Float32, value=...).
    std::string toString() const;

private:
    void checkDType(DType expected) const;
    std::shared_ptr<TensorImpl> m_impl;
};

template <class T> T* Tensor::data()
{
    checkDType(DTypeOf<T>::value);
    return static_cast<T*>(rawData());
}

template <class T> const T* Tensor::data() const
{
    checkDType(DTypeOf<T>::value);
    return static_cast<const T*>(rawData());
}

template <class T> Tensor Tensor::fromVector(const Shape& shape, const std::vector<T>& values)
{
    if (static_cast<std::int64_t>(values.size()) != shape.numel())
        throw ShapeError("tensor of shape " + shape.toString() + " needs " + std::to_string(shape.numel())
                         + " values, got " + std::to_string(values.size()));
    Tensor t = empty(shape, DTypeOf<T>::value);
    T* out = t.data<T>();
    for (std::size_t i = 0; i < values.size(); ++i)
        out[i] = values[i];
    return t;
}

using TensorList = std::vector<Tensor>;

/// Raw dtype conversion (not an op, records nothing): returns x itself when already `dtype`.
Tensor convertDType(const Tensor& x, DType dtype);

} // namespace gradstep
