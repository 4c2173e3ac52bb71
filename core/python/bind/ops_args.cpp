// Argument checks and shared functional ops for the mindspore.ops bindings (see ops_args.h).
// SPDX-License-Identifier: MIT
#include "python/bind/ops_args.h"
#include "python/bind/convert.h"

#include "ops/elementwise.h"
#include "ops/nn_ops.h"
#include "ops/reduction.h"
#include "ops/shape_ops.h"

#include <cctype>
#include <cstring>

namespace py = pybind11;

namespace gradstep::python::ops {

std::string typeName(py::handle value) { return py::str(py::type::handle_of(value).attr("__name__")); }

void throwArgType(const char* op, const char* arg, const char* expected, py::handle got)
{
    throw py::type_error(std::string("For '") + op + "', the '" + arg + "' must be " + expected + ", but got "
                         + typeName(got) + ".");
}

const Tensor& tensorArg(py::handle value, const char* op, const char* arg)
{
    const Tensor* t = asTensor(value);
    if (!t)
        throwArgType(op, arg, "a Tensor", value);
    return *t;
}

std::pair<Tensor, Tensor> binaryArgs(py::handle a, py::handle b, const char* op)
{
    const Tensor* ta = asTensor(a);
    const Tensor* tb = asTensor(b);
    if (ta && tb)
        return {*ta, *tb};
    if (ta && isScalar(b))
        return {*ta, *toOperand(b, *ta)};
    if (tb && isScalar(a))
        return {*toOperand(a, *tb), *tb};
    if (!ta && !tb)
        throw py::type_error(std::string("For '") + op + "', at least one of the inputs must be a Tensor, but got "
                             + typeName(a) + " and " + typeName(b) + ".");
    throwArgType(op, ta ? "other" : "input", "a Tensor or a number", ta ? b : a);
}

std::int64_t intArg(py::handle value, const char* op, const char* arg)
{
    if (PyBool_Check(value.ptr()) || !PyLong_Check(value.ptr()))
        throwArgType(op, arg, "int", value);
    return value.cast<std::int64_t>();
}

bool boolArg(py::handle value, const char* op, const char* arg)
{
    if (!PyBool_Check(value.ptr()))
        throwArgType(op, arg, "bool", value);
    return value.ptr() == Py_True;
}

Axes shapeArg(py::handle value, const char* op, const char* arg)
{
    if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr()))
        return {value.cast<std::int64_t>()};
    if (!PyTuple_Check(value.ptr()) && !PyList_Check(value.ptr()))
        throwArgType(op, arg, "an int or a tuple of ints", value);
    Axes out;
    for (py::handle item : value) {
        if (asTensor(item) && isIntegral(asTensor(item)->dtype()) && asTensor(item)->numel() == 1)
            out.push_back(static_cast<std::int64_t>(asTensor(item)->item()));
        else
            out.push_back(intArg(item, op, arg));
    }
    return out;
}

Axes axesArg(py::handle axis, const char* op, const char* arg)
{
    if (axis.is_none())
        return {};
    // MindSpore 2.x also takes the axes as an integer Tensor (0-D or 1-D): a constant of the op,
    // so no gradient flows to it.
    if (const Tensor* t = asTensor(axis)) {
        if (!isIntegral(t->dtype()) || t->shape().rank() > 1)
            throwArgType(op, arg, "an int, a tuple of ints or a 0-D or 1-D integer Tensor", axis);
        requireValues(*t);
        Axes out;
        for (double v : t->toDoubles())
            out.push_back(static_cast<std::int64_t>(v));
        return out;
    }
    return shapeArg(axis, op, arg);
}

Axes pairArg(py::handle value, const char* op, const char* arg)
{
    Axes v = shapeArg(value, op, arg);
    if (v.size() == 1)
        return {v[0], v[0]};
    if (v.size() == 4 && v[0] == 1 && v[1] == 1) // MindSpore also accepts (1, 1, h, w)
        return {v[2], v[3]};
    if (v.size() != 2)
        throw py::value_error(std::string("For '") + op + "', the '" + arg
                              + "' must be an int or a tuple of two ints, but got " + std::to_string(v.size())
                              + " values.");
    return v;
}

TensorList tensorsArg(py::handle value, const char* op, const char* arg)
{
    if (!PyTuple_Check(value.ptr()) && !PyList_Check(value.ptr()))
        throwArgType(op, arg, "a tuple or list of Tensors", value);
    TensorList out;
    for (py::handle item : value)
        out.push_back(tensorArg(item, op, arg));
    return out;
}

py::tuple tupleOf(const TensorList& tensors)
{
    py::tuple out(tensors.size());
    for (std::size_t i = 0; i < tensors.size(); ++i)
        out[i] = py::cast(tensors[i]);
    return out;
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

Tensor trueDiv(const Tensor& a, const Tensor& b)
{
    const auto inexact = [](DType d) { return isFloating(d) || isComplex(d); };
    if (!inexact(a.dtype()) && !inexact(b.dtype()))
        return div(cast(a, DType::Float32), cast(b, DType::Float32));
    return div(a, b);
}

Tensor reduceOp(const char* op, const Tensor& x, const Axes& axis, bool keepDims)
{
    if (std::strcmp(op, "ReduceSum") == 0)
        return reduceSum(x, axis, keepDims);
    if (std::strcmp(op, "ReduceMean") == 0)
        return reduceMean(x, axis, keepDims);
    if (std::strcmp(op, "ReduceMax") == 0)
        return reduceMax(x, axis, keepDims);
    return reduceMin(x, axis, keepDims);
}

Tensor clipValue(const Tensor& x, py::handle low, py::handle high, const char* op)
{
    if (low.is_none() && high.is_none())
        throw py::value_error(std::string("For '") + op + "', the min and max values cannot both be None.");
    auto bound = [&](py::handle value, const char* arg) {
        std::optional<Tensor> t = isScalar(value) || asTensor(value) ? toOperand(value, x) : std::nullopt;
        if (!t)
            throwArgType(op, arg, "a Tensor, a number or None", value);
        return *t;
    };
    if (high.is_none())
        return maximum(x, bound(low, "min"));
    if (low.is_none())
        return minimum(x, bound(high, "max"));
    return clipByValue(x, bound(low, "min"), bound(high, "max"));
}

Tensor whereOp(py::handle condition, py::handle x, py::handle y, const char* op)
{
    const Tensor& cond = tensorArg(condition, op, "condition");
    if (cond.dtype() != DType::Bool)
        throw py::type_error(std::string("For '") + op + "', the 'condition' must be a bool Tensor, but got "
                             + std::string(dtypeName(cond.dtype())) + ".");
    auto [a, b] = binaryArgs(x, y, op);
    return select(cond, a, b);
}

Tensor oneHotOp(py::handle indices, py::handle depth, py::handle on, py::handle off, std::int64_t axis, const char* op)
{
    const Tensor& idx = tensorArg(indices, op, "indices");
    const Tensor* onT = asTensor(on);
    const Tensor* offT = asTensor(off);
    const DType dtype = onT ? onT->dtype() : (PyFloat_Check(on.ptr()) ? DType::Float32 : DType::Int64);
    auto number = [&](py::handle value, const Tensor* t, const char* arg) {
        if (t)
            return t->item();
        if (!isScalar(value))
            throwArgType(op, arg, "a Tensor or a number", value);
        return value.cast<double>();
    };
    return oneHot(idx, intArg(depth, op, "depth"), number(on, onT, "on_value"), number(off, offT, "off_value"),
                  axis, dtype);
}

Tensor filled(const Axes& shape, double value, py::handle dtype, DType fallback)
{
    return fill(dtype.is_none() ? fallback : toDType(dtype), shape, value);
}

Tensor filledLike(const Tensor& x, double value, py::handle dtype)
{
    if (dtype.is_none())
        return value == 0.0 ? zerosLike(x) : onesLike(x);
    return fill(toDType(dtype), std::vector<std::int64_t>(x.shape().begin(), x.shape().end()), value);
}

Tensor softmaxCrossEntropyOp(const Tensor& logits, const Tensor& labels, bool sparse)
{
    return sparse ? sparseSoftmaxCrossEntropy(logits, labels) : softmaxCrossEntropy(logits, labels);
}

std::string padModeArg(py::handle value, const char* op, bool allowPad)
{
    if (!PyUnicode_Check(value.ptr()))
        throwArgType(op, "pad_mode", "str", value);
    std::string mode = value.cast<std::string>();
    for (char& c : mode)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (mode != "same" && mode != "valid" && !(allowPad && mode == "pad"))
        throw py::value_error(std::string("For '") + op + "', the 'pad_mode' must be one of "
                              + (allowPad ? "['same', 'valid', 'pad']" : "['same', 'valid']") + ", but got '"
                              + value.cast<std::string>() + "'.");
    return mode;
}

Tensor normOp(const Tensor& x, py::handle ord, py::handle dim, bool keepDim)
{
    double p = 2.0;
    if (PyUnicode_Check(ord.ptr())) {
        if (py::str(ord).cast<std::string>() != "fro")
            throw py::value_error("For 'norm', ord '" + py::str(ord).cast<std::string>()
                                  + "' is not supported by gradstep (use None, 'fro' or a number p >= 1).");
    } else if (!ord.is_none()) {
        if (PyBool_Check(ord.ptr()) || !(PyLong_Check(ord.ptr()) || PyFloat_Check(ord.ptr())))
            throwArgType("norm", "ord", "None, 'fro' or a number", ord);
        p = ord.cast<double>();
        if (!(p >= 1.0) || std::isinf(p))
            throw py::value_error("For 'norm', ord must be a finite number >= 1 for gradstep, but got "
                                  + std::string(py::repr(ord)) + ".");
    }
    return gradstep::norm(x, axesArg(dim, "norm", "dim"), p, keepDim);
}

} // namespace gradstep::python::ops
