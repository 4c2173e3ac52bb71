// Methods of mindspore.Tensor (MindSpore 2.x signatures): reshape, view, transpose, T, sum, mean,
// max, min, argmax, argmin, astype, squeeze, expand_dims, flatten, copy, and __getitem__ through
// the core's getitem (ints, slices, ellipsis, None, bools, index and mask tensors, lists).
// SPDX-License-Identifier: MIT
#include "python/bindings.h"
#include "python/convert.h"

#include "ops/elementwise.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

#include <pybind11/stl.h>

#include <string>
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

Tensor flattenRange(const Tensor& x, std::int64_t startDim, std::int64_t endDim)
{
    if (x.rank() == 0)
        return reshape(x, {1});
    const int start = normalizeAxis(startDim, x.rank(), "flatten");
    const int end = normalizeAxis(endDim, x.rank(), "flatten");
    if (start > end)
        throw py::value_error("For 'flatten', 'start_dim' (" + std::to_string(startDim)
                              + ") must not come after 'end_dim' (" + std::to_string(endDim) + ").");
    Axes dims;
    std::int64_t merged = 1;
    for (int axis = 0; axis < x.rank(); ++axis) {
        if (axis < start || axis > end)
            dims.push_back(x.shape()[axis]);
        else
            merged *= x.shape()[axis];
        if (axis == end)
            dims.push_back(merged);
    }
    return reshape(x, dims);
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
                 return flattenRange(x, startDim, endDim);
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

std::optional<std::int64_t> sliceBound(py::handle value)
{
    if (value.is_none())
        return std::nullopt;
    return py::reinterpret_borrow<py::object>(value).attr("__index__")().cast<std::int64_t>();
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
    if (!PyBool_Check(item.ptr()) && PyIndex_Check(item.ptr()))
        return IndexItem::integer(py::reinterpret_borrow<py::object>(item).attr("__index__")().cast<std::int64_t>());
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

} // namespace

void bindTensorMethods(TensorClass& cls)
{
    bindShapeMethods(cls);
    bindReductions(cls);
    cls.def("__getitem__", &getItem);
}

} // namespace gradstep::python
