// mindspore.ops array functions (MindSpore 2.x names and argument names): reshape, transpose /
// permute, squeeze, expand_dims / unsqueeze, flatten, concat / cat, stack, split, tile,
// broadcast_to, gather, one_hot, cast, shape / rank / size, and creation: zeros, ones,
// zeros_like, ones_like, fill, full, arange. SPDX-License-Identifier: MIT
#include "python/bind/convert.h"
#include "python/bind/ops_args.h"

#include "ops/elementwise.h"
#include "ops/shape_ops.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace py = pybind11;

namespace gradstep::python::ops {

namespace {

Tensor flattenOp(py::handle x, const std::string& order, py::handle startDim, py::handle endDim)
{
    if (order != "C")
        throw py::value_error("For 'flatten', only order='C' is supported, got '" + order + "'.");
    return flattenRange(tensorArg(x, "flatten", "input"), intArg(startDim, "flatten", "start_dim"),
                        intArg(endDim, "flatten", "end_dim"));
}

/// split_size_or_sections: an int (chunks of that size, the last one smaller) or sizes.
py::tuple splitOp(py::handle x, py::handle sections, py::handle axisArg)
{
    const Tensor& t = tensorArg(x, "split", "tensor");
    const std::int64_t axis = intArg(axisArg, "split", "axis");
    if (t.rank() == 0)
        throw py::value_error("For 'split', the input must have at least one dimension, got a 0-D tensor.");
    if (PyLong_Check(sections.ptr()) && !PyBool_Check(sections.ptr())) {
        const std::int64_t size = sections.cast<std::int64_t>();
        if (size <= 0)
            throw py::value_error("For 'split', 'split_size_or_sections' must be positive, but got "
                                  + std::to_string(size) + ".");
        const std::int64_t dim = t.shape()[normalizeAxis(axis, t.rank(), "split")];
        Axes sizes(static_cast<std::size_t>(dim / size), size);
        if (dim % size != 0)
            sizes.push_back(dim % size);
        return tupleOf(splitSizes(t, axis, sizes));
    }
    return tupleOf(splitSizes(t, axis, shapeArg(sections, "split", "split_size_or_sections")));
}

double numberArg(py::handle value, const char* op, const char* arg)
{
    if (const Tensor* t = asTensor(value))
        return t->item();
    if (!isScalar(value))
        throwArgType(op, arg, "a number", value);
    return value.cast<double>();
}

bool isFloatNumber(py::handle value)
{
    const Tensor* t = asTensor(value);
    if (t)
        return isFloating(t->dtype());
    return PyFloat_Check(value.ptr()) || py::isinstance(value, py::module_::import("numpy").attr("floating"));
}

/// arange without a dtype: the widest of its arguments, ranked int32 < int64 (a Python int) < float32
/// (a Python float) < float64, as MindSpore infers it.
DType arangeDType(std::initializer_list<py::handle> args)
{
    int level = 0;
    for (py::handle value : args) {
        if (value.is_none())
            continue;
        int own = 1;
        if (const Tensor* t = asTensor(value))
            own = t->dtype() == DType::Float64 ? 3 : isFloating(t->dtype()) ? 2 : t->dtype() == DType::Int32 ? 0 : 1;
        else if (isFloatNumber(value))
            own = 2;
        level = std::max(level, own);
    }
    static const DType byLevel[] = {DType::Int32, DType::Int64, DType::Float32, DType::Float64};
    return byLevel[level];
}

Tensor arange(py::handle startArg, py::handle endArg, py::handle stepArg, py::handle dtype)
{
    double start = numberArg(startArg, "arange", "start");
    double end = 0.0;
    if (endArg.is_none())
        std::swap(start, end);
    else
        end = numberArg(endArg, "arange", "end");
    const double step = numberArg(stepArg, "arange", "step");
    if (step == 0.0)
        throw py::value_error("For 'arange', 'step' must not be 0.");
    const double count = std::ceil((end - start) / step);
    if (!(count >= 0.0))
        throw py::value_error("For 'arange', 'end' must be reachable from 'start' by 'step', but got start "
                              + std::to_string(start) + ", end " + std::to_string(end) + ", step "
                              + std::to_string(step) + ".");
    const DType type = dtype.is_none() ? arangeDType({startArg, endArg, stepArg}) : toDType(dtype);
    std::vector<double> values(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = start + static_cast<double>(i) * step;
    return Tensor::fromDoubles(Shape({static_cast<std::int64_t>(values.size())}), values, type);
}

/// full / fill: the dtype follows the value when none is given (bool, int64 or float32).
DType valueDType(py::handle value)
{
    if (PyBool_Check(value.ptr()))
        return DType::Bool;
    return isFloatNumber(value) ? DType::Float32 : DType::Int64;
}

void bindShapes(py::module_& m)
{
    m.def("reshape", [](py::handle x, py::handle shape) {
        return reshape(tensorArg(x, "Reshape", "input"), shapeArg(shape, "Reshape", "shape"));
    }, py::arg("input"), py::arg("shape"));
    m.def("transpose", [](py::handle x, py::handle perm) {
        return transpose(tensorArg(x, "Transpose", "input"), shapeArg(perm, "Transpose", "input_perm"));
    }, py::arg("input"), py::arg("input_perm"));
    m.def("permute", [](py::handle x, py::handle perm) {
        return transpose(tensorArg(x, "permute", "input"), shapeArg(perm, "permute", "axis"));
    }, py::arg("input"), py::arg("axis"));
    m.def("squeeze", [](py::handle x, py::handle axis) {
        return squeeze(tensorArg(x, "Squeeze", "input"), axesArg(axis, "Squeeze", "axis"));
    }, py::arg("input"), py::arg("axis") = py::none());
    m.def("expand_dims", [](py::handle x, py::handle axis) {
        return expandDims(tensorArg(x, "ExpandDims", "input_x"), intArg(axis, "ExpandDims", "axis"));
    }, py::arg("input_x"), py::arg("axis"));
    m.def("unsqueeze", [](py::handle x, py::handle dim) {
        return expandDims(tensorArg(x, "unsqueeze", "input"), intArg(dim, "unsqueeze", "dim"));
    }, py::arg("input"), py::arg("dim"));
    m.def("flatten", &flattenOp, py::arg("input"), py::arg("order") = "C", py::kw_only(), py::arg("start_dim") = 1,
          py::arg("end_dim") = -1);
    for (const char* name : {"concat", "cat"})
        m.def(name, [name](py::handle xs, py::handle axis) {
            return concat(tensorsArg(xs, name, "tensors"), intArg(axis, name, "axis"));
        }, py::arg("tensors"), py::arg("axis") = 0);
    m.def("stack", [](py::handle xs, py::handle axis) {
        return stack(tensorsArg(xs, "Stack", "tensors"), intArg(axis, "Stack", "axis"));
    }, py::arg("tensors"), py::arg("axis") = 0);
    m.def("split", &splitOp, py::arg("tensor"), py::arg("split_size_or_sections"), py::arg("axis") = 0);
    m.def("tile", [](py::handle x, py::handle dims) {
        return tile(tensorArg(x, "Tile", "input"), shapeArg(dims, "Tile", "dims"));
    }, py::arg("input"), py::arg("dims"));
    m.def("broadcast_to", [](py::handle x, py::handle shape) {
        return broadcastTo(tensorArg(x, "BroadcastTo", "input"), shapeArg(shape, "BroadcastTo", "shape"));
    }, py::arg("input"), py::arg("shape"));
    m.def("gather", [](py::handle params, py::handle indices, py::handle axis, py::handle batchDims) {
        if (intArg(batchDims, "Gather", "batch_dims") != 0)
            throw py::value_error("For 'Gather', only batch_dims=0 is supported.");
        return gather(tensorArg(params, "Gather", "input_params"), tensorArg(indices, "Gather", "input_indices"),
                      intArg(axis, "Gather", "axis"));
    }, py::arg("input_params"), py::arg("input_indices"), py::arg("axis"), py::arg("batch_dims") = 0);
    m.def("one_hot", [](py::handle indices, py::handle depth, py::handle on, py::handle off, py::handle axis) {
        return oneHotOp(indices, depth, on, off, intArg(axis, "OneHot", "axis"), "OneHot");
    }, py::arg("indices"), py::arg("depth"), py::arg("on_value") = 1, py::arg("off_value") = 0, py::arg("axis") = -1);
    m.def("cast", [](py::handle x, py::handle dtype) { return cast(tensorArg(x, "Cast", "input"), toDType(dtype)); },
          py::arg("input"), py::arg("dtype"));
    m.def("shape", [](py::handle x) { return py::tuple(py::cast(tensorArg(x, "shape", "input_x")).attr("shape")); },
          py::arg("input_x"));
    m.def("rank", [](py::handle x) { return tensorArg(x, "rank", "input_x").rank(); }, py::arg("input_x"));
    m.def("size", [](py::handle x) { return tensorArg(x, "size", "input").numel(); }, py::arg("input"));
}

void bindCreation(py::module_& m)
{
    m.def("zeros", [](py::handle size, py::handle dtype) {
        return filled(shapeArg(size, "zeros", "size"), 0.0, dtype, DType::Float32);
    }, py::arg("size"), py::arg("dtype") = py::none());
    m.def("ones", [](py::handle shape, py::handle dtype) {
        return filled(shapeArg(shape, "ones", "shape"), 1.0, dtype, DType::Float32);
    }, py::arg("shape"), py::arg("dtype") = py::none());
    m.def("zeros_like", [](py::handle x, py::handle dtype) { return filledLike(tensorArg(x, "zeros_like", "input"), 0.0, dtype); },
          py::arg("input"), py::kw_only(), py::arg("dtype") = py::none());
    m.def("ones_like", [](py::handle x, py::handle dtype) { return filledLike(tensorArg(x, "ones_like", "input"), 1.0, dtype); },
          py::arg("input"), py::kw_only(), py::arg("dtype") = py::none());
    m.def("fill", [](py::handle type, py::handle shape, py::handle value) {
        return filled(shapeArg(shape, "fill", "shape"), numberArg(value, "fill", "value"), type, valueDType(value));
    }, py::arg("type"), py::arg("shape"), py::arg("value"));
    m.def("full", [](py::handle size, py::handle value, py::handle dtype) {
        return filled(shapeArg(size, "full", "size"), numberArg(value, "full", "fill_value"), dtype, valueDType(value));
    }, py::arg("size"), py::arg("fill_value"), py::kw_only(), py::arg("dtype") = py::none());
    m.def("arange", &arange, py::arg("start") = 0, py::arg("end") = py::none(), py::arg("step") = 1, py::kw_only(),
          py::arg("dtype") = py::none());
}

} // namespace

void bindArray(py::module_& ops)
{
    bindShapes(ops);
    bindCreation(ops);
}

} // namespace gradstep::python::ops
