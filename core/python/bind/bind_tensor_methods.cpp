// Methods of mindspore.Tensor (MindSpore 2.x signatures): reshape, view, transpose, T, sum, mean,
// max, min, argmax, argmin, astype, squeeze, expand_dims, flatten, copy, abs, exp, log, sqrt, pow,
// matmul, clip, and __getitem__ through the core's getitem (ints, slices, ellipsis, None, bools,
// index and mask tensors, lists) and __setitem__ (the same indices; see Note [setitem]).
// SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"
#include "python/bind/ops_args.h"

#include "autodiff/context.h"
#include "ops/elementwise.h"
#include "ops/nn_ops.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

#include <pybind11/stl.h>

#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace gradstep::python {

namespace {

using Axes = std::vector<std::int64_t>;

std::string typeName(py::handle value) { return py::str(py::type::handle_of(value).attr("__name__")); }

/// None: every axis (MindSpore's axis=()); an int; a tuple or list of ints.
Axes toAxes(py::handle axis)
{
    if (axis.is_none())
        return {};
    if (PyLong_Check(axis.ptr()))
        return {axis.cast<std::int64_t>()};
    if (PyTuple_Check(axis.ptr()) || PyList_Check(axis.ptr()))
        return axis.cast<Axes>();
    throw py::type_error("axis must be None, an int or a tuple of ints, got " + typeName(axis));
}

/// reshape(2, 3) and reshape((2, 3)) alike.
Axes toDims(const py::args& args)
{
    if (args.size() == 1 && !PyLong_Check(args[0].ptr()))
        return toAxes(args[0]);
    return args.cast<Axes>();
}

Tensor sum(const Tensor& x, const py::object& axis, const py::object& dtype, bool keepdims, const py::object& initial)
{
    const Tensor input = dtype.is_none() ? x : cast(x, toDType(dtype));
    Tensor result = reduceSum(input, toAxes(axis), keepdims);
    if (!initial.is_none())
        result = add(result, *toOperand(initial, result));
    return result;
}

/// A differentiable copy with its own storage (a Parameter's copy must not follow its updates).
Tensor copyOf(const Tensor& x)
{
    if (x.dtype() == DType::Bool || !x.requiresGrad())
        return x.clone();
    return mul(x, Tensor::scalar(1.0, x.dtype()));
}

void bindShapeMethods(TensorClass& cls)
{
    cls.def("reshape", [](const Tensor& x, const py::args& shape) { return reshape(x, toDims(shape)); })
        .def("view", [](const Tensor& x, const py::args& shape) { return reshape(x, toDims(shape)); })
        .def("transpose", [](const Tensor& x, const py::args& axes) { return transpose(x, toDims(axes)); })
        .def_property_readonly("T", [](const Tensor& x) { return transpose(x); })
        .def("squeeze", [](const Tensor& x, const py::object& axis) { return squeeze(x, toAxes(axis)); },
             py::arg("axis") = py::none())
        .def("expand_dims", [](const Tensor& x, std::int64_t axis) { return expandDims(x, axis); }, py::arg("axis"))
        .def("flatten",
             [](const Tensor& x, const std::string& order, std::int64_t startDim, std::int64_t endDim) {
                 if (order != "C")
                     throw py::value_error("For 'flatten', only order='C' is supported, got '" + order + "'.");
                 return ops::flattenRange(x, startDim, endDim);
             },
             py::arg("order") = "C", py::kw_only(), py::arg("start_dim") = 0, py::arg("end_dim") = -1)
        .def("astype", [](const Tensor& x, const py::object& dtype, bool) { return cast(x, toDType(dtype)); },
             py::arg("dtype"), py::arg("copy") = true)
        .def("copy", &copyOf);
}

void bindReductions(TensorClass& cls)
{
    cls.def("sum", &sum, py::arg("axis") = py::none(), py::arg("dtype") = py::none(), py::arg("keepdims") = false,
            py::arg("initial") = py::none())
        .def("mean",
             [](const Tensor& x, const py::object& axis, bool keepDims) { return reduceMean(x, toAxes(axis), keepDims); },
             py::arg("axis") = py::none(), py::arg("keep_dims") = false)
        .def("max",
             [](const Tensor& x, const py::object& axis, bool keepdims) { return reduceMax(x, toAxes(axis), keepdims); },
             py::arg("axis") = py::none(), py::arg("keepdims") = false)
        .def("min",
             [](const Tensor& x, const py::object& axis, bool keepdims) { return reduceMin(x, toAxes(axis), keepdims); },
             py::arg("axis") = py::none(), py::arg("keepdims") = false)
        .def("argmax",
             [](const Tensor& x, const py::object& axis, bool keepdims) {
                 return axis.is_none() ? argmax(reshape(x, {-1}), 0) : argmax(x, axis.cast<std::int64_t>(), keepdims);
             },
             py::arg("axis") = py::none(), py::arg("keepdims") = false)
        .def("argmin",
             [](const Tensor& x, const py::object& axis, bool keepdims) {
                 return axis.is_none() ? argmin(reshape(x, {-1}), 0) : argmin(x, axis.cast<std::int64_t>(), keepdims);
             },
             py::arg("axis") = py::none(), py::arg("keepdims") = false);
}

/// value.__index__() as int64, and whether it overflowed (then clamped to int64's range).
std::pair<std::int64_t, bool> indexValue(py::handle value)
{
    const py::object index = py::reinterpret_borrow<py::object>(value).attr("__index__")();
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (overflow != 0)
        return {overflow > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min(), true};
    if (v == -1 && PyErr_Occurred())
        throw py::error_already_set();
    return {v, false};
}

// A slice bound past int64 is clamped, as NumPy and Python sequences clamp any bound.
std::optional<std::int64_t> sliceBound(py::handle value)
{
    if (value.is_none())
        return std::nullopt;
    return indexValue(value).first;
}

IndexItem toIndexItem(py::handle item)
{
    if (item.is_none())
        return IndexItem::newAxis();
    if (item.ptr() == Py_Ellipsis)
        return IndexItem::ellipsis();
    if (py::isinstance<Tensor>(item))
        return IndexItem::index(item.cast<Tensor>());
    if (PySlice_Check(item.ptr()))
        return IndexItem::slice(sliceBound(item.attr("start")), sliceBound(item.attr("stop")),
                                sliceBound(item.attr("step")));
    if (PyList_Check(item.ptr()) || py::isinstance<py::array>(item))
        return IndexItem::index(toTensor(item));
    if (!PyBool_Check(item.ptr()) && PyIndex_Check(item.ptr())) {
        const auto [value, overflowed] = indexValue(item);
        if (overflowed)
            throw py::index_error("index " + py::str(item).cast<std::string>()
                                  + " is out of bounds: tensor indices must fit in int64");
        return IndexItem::integer(value);
    }
    throw py::index_error("Tensor indices must be integers, slices, ellipsis, None, bools, tensors or lists, not "
                          + typeName(item));
}

/// Output axis that index item `position` creates, for a NewAxis (Python bools become NewAxis).
std::int64_t outputAxisOf(const std::vector<IndexItem>& items, std::size_t position, int rank)
{
    int consumed = 0;
    for (const auto& item : items)
        consumed += item.kind == IndexItem::Kind::Int || item.kind == IndexItem::Kind::Slice ? 1 : 0;
    std::int64_t axis = 0;
    for (std::size_t i = 0; i < position; ++i) {
        switch (items[i].kind) {
        case IndexItem::Kind::Slice:
        case IndexItem::Kind::NewAxis: ++axis; break;
        case IndexItem::Kind::Ellipsis: axis += rank - consumed; break;
        default: break;
        }
    }
    return axis;
}

// x[True] adds an axis of length 1 and x[False] one of length 0, as in NumPy: both are a NewAxis,
// and each False then slices its axis to nothing.
Tensor getItem(const Tensor& x, py::handle index)
{
    std::vector<IndexItem> items;
    std::vector<std::size_t> falses;
    bool tensorIndex = false;
    const py::tuple tuple = PyTuple_Check(index.ptr()) ? py::reinterpret_borrow<py::tuple>(index)
                                                       : py::make_tuple(index);
    for (py::handle item : tuple) {
        if (PyBool_Check(item.ptr())) {
            if (item.ptr() == Py_False)
                falses.push_back(items.size());
            items.push_back(IndexItem::newAxis());
            continue;
        }
        items.push_back(toIndexItem(item));
        tensorIndex = tensorIndex || items.back().kind == IndexItem::Kind::Tensor;
    }
    if (!falses.empty() && tensorIndex)
        throw py::index_error("a False index together with tensor indices is not supported");
    Tensor result = getitem(x, items);
    for (std::size_t position : falses) {
        std::vector<IndexItem> empty(static_cast<std::size_t>(outputAxisOf(items, position, x.rank())),
                                     IndexItem::slice(std::nullopt, std::nullopt));
        empty.push_back(IndexItem::slice(0, 0));
        result = getitem(result, empty);
    }
    return result;
}

// Note [setitem]
// x[index] = value writes into x's storage, as MindSpore's PyNative Tensor.__setitem__ changes the
// tensor in place. It is a value write done outside autodiff: the tape records nodes for ops and
// has no way to express "this tensor's earlier values were replaced", so a write into a tensor
// that autodiff tracks (a Parameter or an op output that requires grad) while a tape records
// raises RuntimeError rather than produce a wrong gradient. Outside recording (data preparation,
// initialisation) such writes are allowed. Storage shared with other tensors (reshape and squeeze
// return views of their input) is copied first, so only this tensor changes. The positions are
// found by indexing a tensor of flat positions with the same getitem, so every index getitem
// accepts works here too; with repeated indices the last write wins, as in NumPy.
void setItem(const Tensor& target, py::handle index, py::handle value)
{
    ExecutionContext& context = executionContext();
    if (context.tracer)
        throw py::type_error("Tensor.__setitem__ is not supported while tracing a graph");
    if (target.requiresGrad() && context.recording())
        throw std::runtime_error("Tensor.__setitem__: in-place assignment to a tensor that requires grad is not "
                                 "supported while gradients are being recorded (gradstep's tape cannot record "
                                 "an in-place write); build the new value with ops such as ops.where or "
                                 "ops.select instead");
    NoGradGuard noGrad;
    Tensor positions = Tensor::empty(target.shape(), DType::Int64);
    auto* flat = positions.data<std::int64_t>();
    for (std::int64_t i = 0; i < target.numel(); ++i)
        flat[i] = i;
    const Tensor selected = getItem(positions, index);
    const Tensor* given = asTensor(value);
    Tensor source = cast(given ? *given : toTensor(value), target.dtype());
    while (source.rank() > selected.rank() && source.shape()[0] == 1)
        source = reshape(source, Axes(source.shape().begin() + 1, source.shape().end()));
    if (source.shape() != selected.shape())
        source = broadcastTo(source, Axes(selected.shape().begin(), selected.shape().end()));
    Tensor x = target;
    if (x.impl()->storage.use_count() > 1)
        x.impl()->storage = x.clone().impl()->storage;
    const auto* at = selected.data<std::int64_t>();
    // source has x's dtype: elements move as bytes, whatever the dtype.
    const std::size_t size = itemSize(x.dtype());
    auto* out = static_cast<unsigned char*>(x.rawData());
    const auto* in = static_cast<const unsigned char*>(source.rawData());
    for (std::int64_t i = 0; i < selected.numel(); ++i)
        std::memcpy(out + static_cast<std::size_t>(at[i]) * size, in + static_cast<std::size_t>(i) * size, size);
}

void bindMath(TensorClass& cls)
{
    cls.def("abs", [](const Tensor& x) { return gradstep::abs(x); })
        .def("exp", [](const Tensor& x) { return gradstep::exp(x); })
        .def("log", [](const Tensor& x) { return gradstep::log(x); })
        .def("sqrt", [](const Tensor& x) { return gradstep::sqrt(x); })
        .def("pow", [](const Tensor& x, py::handle exponent) {
            auto [a, b] = ops::binaryArgs(py::cast(x), exponent, "Pow");
            return gradstep::pow(a, b);
        }, py::arg("exponent"))
        .def("matmul", [](const Tensor& x, py::handle other) {
            return matmul(x, ops::tensorArg(other, "MatMul", "tensor2"));
        }, py::arg("tensor2"))
        .def("clip", [](const Tensor& x, py::handle low, py::handle high) {
            return ops::clipValue(x, low, high, "clip");
        }, py::arg("min") = py::none(), py::arg("max") = py::none())
        .def("round", [](const Tensor& x) { return gradstep::round(x); })
        .def("norm", [](const Tensor& x, py::handle ord, py::handle dim, bool keepDim) {
            return ops::normOp(x, ord, dim, keepDim);
        }, py::arg("ord") = py::none(), py::arg("dim") = py::none(), py::arg("keepdim") = false);
}

} // namespace

void bindTensorMethods(TensorClass& cls)
{
    bindShapeMethods(cls);
    bindReductions(cls);
    bindMath(cls);
    cls.def("__getitem__", &getItem).def("__setitem__", &setItem);
}

} // namespace gradstep::python
