// mindspore.Tensor: construction from NumPy arrays, lists and scalars, conversions back to NumPy
// and Python numbers, properties, printing. Operators and methods are in bind_tensor_ops.cpp and
// bind_tensor_methods.cpp. SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"
#include "tensor/dtype_storage.h"

#include <pybind11/stl.h>

#include <string>
#include <vector>

namespace py = pybind11;

namespace gradstep::python {

namespace {

Tensor makeTensor(const py::object& inputData, const py::object& dtype, const py::object& shape,
                  const py::object& init, bool /*internal*/, bool /*constArg*/)
{
    const std::optional<DType> type = dtype.is_none() ? std::nullopt : std::optional<DType>(toDType(dtype));
    if (inputData.is_none()) {
        // MindSpore's dynamic-shape placeholders: None dimensions are unknown (-1), and a dtype
        // without a shape leaves even the rank unknown ([-2]).
        if (shape.is_none()) {
            if (!type)
                throw py::value_error("For 'Tensor', 'input_data' and 'shape' cannot both be None.");
            if (!init.is_none())
                throw py::type_error("For 'Tensor', 'init' needs 'shape'.");
            return Tensor::dynamicPlaceholder({-2}, *type);
        }
        std::vector<std::int64_t> dims;
        bool dynamic = false;
        if (PyLong_Check(shape.ptr()))
            dims.push_back(shape.cast<std::int64_t>());
        else if (py::isinstance<py::sequence>(shape) && !py::isinstance<py::str>(shape))
            for (py::handle d : shape) {
                if (d.is_none()) {
                    dims.push_back(-1);
                    dynamic = true;
                    continue;
                }
                if (!PyLong_Check(d.ptr()) || PyBool_Check(d.ptr()))
                    throw py::type_error("For 'Tensor', the 'shape' must be an int or a tuple of ints, but got "
                                         + py::str(shape).cast<std::string>() + ".");
                dims.push_back(d.cast<std::int64_t>());
            }
        else
            throw py::type_error("For 'Tensor', the 'shape' must be an int or a tuple of ints, but got "
                                 + std::string(Py_TYPE(shape.ptr())->tp_name) + ".");
        if (dynamic) {
            if (!init.is_none())
                throw py::value_error("For 'Tensor', a shape with None dimensions "
                                      + py::str(shape).cast<std::string>() + " cannot take 'init'.");
            return Tensor::dynamicPlaceholder(std::move(dims), type.value_or(DType::Float32));
        }
        // With init the value comes from the initializer (MindSpore fills it at init_data(); here at once).
        if (!init.is_none())
            return py::module_::import("mindspore.common.initializer")
                .attr("initializer")(init, py::tuple(py::cast(dims)), type ? dtype : py::object(py::module_::import("mindspore").attr("float32")))
                .cast<Tensor>();
        return Tensor::zeros(Shape(dims), type.value_or(DType::Float32));
    }
    if (!init.is_none())
        throw py::type_error("For 'Tensor', 'init' needs 'shape' and no 'input_data'.");
    Tensor t = toTensor(inputData, type);
    if (!shape.is_none()) {
        const auto dims = PyLong_Check(shape.ptr()) ? std::vector<std::int64_t>{shape.cast<std::int64_t>()}
                                                    : shape.cast<std::vector<std::int64_t>>();
        if (Shape(dims) != t.shape())
            throw py::value_error("For 'Tensor', 'shape' " + Shape(dims).toString()
                                  + " does not match the shape of 'input_data' " + t.shape().toString() + ".");
    }
    return t;
}

/// Element i as the Python number of the tensor's dtype (exact for Int64).
py::object element(const Tensor& t, std::int64_t i)
{
    requireValues(t);
    return visitStorageDType(t.dtype(), [&](auto* tag) -> py::object {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T value = static_cast<const T*>(t.rawData())[i];
        if constexpr (std::is_same_v<T, bool>)
            return py::bool_(value);
        else if constexpr (std::is_unsigned_v<T>)
            return py::int_(static_cast<unsigned long long>(value));
        else if constexpr (std::is_integral_v<T>)
            return py::int_(static_cast<long long>(value));
        else if constexpr (kIsComplex<T>)
            return py::reinterpret_steal<py::object>(
                PyComplex_FromDoubles(static_cast<double>(value.real()), static_cast<double>(value.imag())));
        else
            return py::float_(static_cast<double>(value));
    });
}

/// The single element of a tensor with one element (0-D or any shape of size 1).
py::object onlyElement(const Tensor& t, const char* message)
{
    if (t.numel() != 1)
        throw py::value_error(message);
    return element(t, 0);
}

constexpr const char* kOneElement = "Only one element tensors can be converted to Python scalars";

py::object item(const Tensor& t, const py::object& index)
{
    if (index.is_none()) {
        if (t.numel() != 1)
            throw py::value_error("The tensor should have only one element, but got " + std::to_string(t.numel())
                                  + ", more than one element is ambiguous.");
        return element(t, 0);
    }
    std::int64_t flat = 0;
    if (PyLong_Check(index.ptr())) {
        flat = index.cast<std::int64_t>();
        if (flat < 0)
            flat += t.numel();
        if (flat < 0 || flat >= t.numel())
            throw py::index_error("index " + std::string(py::str(index)) + " is out of bounds for a tensor of "
                                  + std::to_string(t.numel()) + " elements");
        return element(t, flat);
    }
    const auto indices = index.cast<std::vector<std::int64_t>>();
    if (static_cast<int>(indices.size()) != t.rank())
        throw py::value_error("item() needs " + std::to_string(t.rank()) + " indices, got "
                              + std::to_string(indices.size()));
    for (int axis = 0; axis < t.rank(); ++axis) {
        std::int64_t i = indices[static_cast<std::size_t>(axis)];
        const std::int64_t dim = t.shape()[axis];
        if (i < 0)
            i += dim;
        if (i < 0 || i >= dim)
            throw py::index_error("index " + std::to_string(indices[static_cast<std::size_t>(axis)])
                                  + " is out of bounds for axis " + std::to_string(axis) + " with size "
                                  + std::to_string(dim));
        flat = flat * dim + i;
    }
    return element(t, flat);
}

py::tuple shapeTuple(const Tensor& t)
{
    if (t.isDynamicPlaceholder())
        return py::tuple(py::cast(*t.impl()->dynamicDims));
    py::tuple shape(static_cast<std::size_t>(t.rank()));
    for (int axis = 0; axis < t.rank(); ++axis)
        shape[static_cast<std::size_t>(axis)] = py::int_(t.shape()[axis]);
    return shape;
}

py::buffer_info bufferOf(Tensor& t)
{
    static unsigned char emptyBuffer = 0; // the buffer protocol wants a valid pointer even for 0 bytes
    std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
    std::vector<py::ssize_t> strides(shape.size());
    py::ssize_t stride = static_cast<py::ssize_t>(itemSize(t.dtype()));
    for (std::size_t axis = shape.size(); axis-- > 0;) {
        strides[axis] = stride;
        stride *= shape[axis];
    }
    const std::string format = visitStorageDType(t.dtype(), [&](auto* tag) -> std::string {
        using T = std::remove_pointer_t<decltype(tag)>;
        if constexpr (std::is_same_v<T, Eigen::half>)
            return "e"; // struct's (and NumPy's) IEEE half
        else if constexpr (std::is_same_v<T, Eigen::bfloat16>)
            return numpyName(t.dtype()); // throws: no buffer format holds bfloat16
        else if constexpr (kIsComplex<T>)
            return std::is_same_v<T, std::complex<float>> ? "Zf" : "Zd";
        else
            return py::format_descriptor<T>::format();
    });
    void* data = t.nbytes() > 0 ? t.rawData() : &emptyBuffer;
    return py::buffer_info(data, static_cast<py::ssize_t>(itemSize(t.dtype())), format,
                           static_cast<py::ssize_t>(shape.size()), shape, strides, /*readonly=*/true);
}

void bindConversions(TensorClass& cls)
{
    cls.def("asnumpy", &toNumpy, "A NumPy array holding a copy of the values.")
        .def("__array__",
             [](const Tensor& t, const py::object& dtype) -> py::object {
                 py::array array = toNumpy(t);
                 return dtype.is_none() ? py::object(array) : array.attr("astype")(dtype);
             },
             py::arg("dtype") = py::none())
        .def("item", &item, py::arg("index") = py::none())
        .def("__bool__",
             [](const Tensor& t) {
                 if (t.numel() == 0)
                     throw py::value_error("The truth value of an empty tensor is ambiguous.");
                 return onlyElement(t, "The truth value of an array with more than one element is ambiguous. "
                                       "Use a.any() or a.all()").cast<bool>();
             })
        .def("__float__", [](const Tensor& t) { return py::float_(onlyElement(t, kOneElement)); })
        .def("__int__",
             [](const Tensor& t) {
                 // Python's int(): a bool Tensor gives 1 or 0, not True or False (py::int_ would keep
                 // the bool, an int subclass, and Python warns that __int__ returned a non-int).
                 const py::object value = onlyElement(t, kOneElement);
                 PyObject* number = PyNumber_Long(value.ptr());
                 if (!number)
                     throw py::error_already_set();
                 return py::reinterpret_steal<py::int_>(number);
             })
        .def("__index__", [](const Tensor& t) {
            if (!isIntegral(t.dtype()) || t.numel() != 1)
                throw py::type_error("only integer tensors of a single element can be converted to an index");
            return element(t, 0);
        });
}

void bindProperties(TensorClass& cls)
{
    cls.def_property_readonly("shape", &shapeTuple)
        .def_property_readonly("dtype", [](const Tensor& t) { return dtypeObject(t.dtype()); })
        .def_property_readonly("ndim", &Tensor::rank)
        .def_property_readonly("size", &Tensor::numel)
        .def_property_readonly("itemsize", [](const Tensor& t) { return itemSize(t.dtype()); })
        .def_property_readonly("nbytes", &Tensor::nbytes)
        .def("dim", &Tensor::rank)
        .def("__len__", [](const Tensor& t) {
            if (t.rank() == 0)
                throw py::type_error("Not support len of a 0-D tensor");
            return t.shape()[0];
        });
}

std::string reprOf(const Tensor& t)
{
    if (!t.isDynamicPlaceholder())
        return t.toString();
    std::string dims;
    for (std::int64_t d : *t.impl()->dynamicDims)
        dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    return "Tensor(shape=[" + dims + "], dtype=" + std::string(dtypeName(t.dtype()))
           + ", value= <dynamic-shape placeholder: no values>)";
}

void bindPrinting(TensorClass& cls)
{
    // print() shows NumPy's rendering of the values; bfloat16 ones (NumPy has no such dtype)
    // are shown through float32, which holds each of them exactly.
    const auto printable = [](const Tensor& t) {
        return toNumpy(t.dtype() == DType::BFloat16 ? convertDType(t, DType::Float32) : t);
    };
    cls.def("__repr__", &reprOf)
        .def("__str__", [printable](const Tensor& t) {
            return t.isDynamicPlaceholder() ? py::str(reprOf(t)) : py::str(printable(t));
        })
        // An empty spec (f"{t}") is str(t), as for any object: NumPy's own would print a float32
        // scalar through a Python float (0.10000000149011612 instead of MindSpore's 0.1).
        .def("__format__", [printable](const Tensor& t, const py::str& spec) -> py::object {
            if (py::len(spec) == 0)
                return t.isDynamicPlaceholder() ? py::str(reprOf(t)) : py::str(printable(t));
            return printable(t).attr("__format__")(spec);
        });
}

void bindProtocols(TensorClass& cls)
{
    // Identity hash, as MindSpore's Tensor: == is elementwise, so equal values do not mean equal keys.
    cls.def("__hash__",
            [](const py::object& self) { return static_cast<py::ssize_t>(reinterpret_cast<std::uintptr_t>(self.ptr()) >> 4); })
        .def("__iter__",
             [](const py::object& self) {
                 if (self.cast<const Tensor&>().rank() == 0)
                     throw py::type_error("iteration over a 0-D tensor");
                 PyObject* iterator = PySeqIter_New(self.ptr());
                 if (!iterator)
                     throw py::error_already_set();
                 return py::reinterpret_steal<py::object>(iterator);
             })
        .def("__copy__", [](const Tensor& t) { return t.clone(); })
        .def("__deepcopy__", [](const Tensor& t, const py::object&) { return t.clone(); }, py::arg("memo"));
    // NumPy operators with a Tensor on the right defer to the Tensor's reflected operators.
    cls.attr("__array_ufunc__") = py::none();
}

} // namespace

TensorClass bindTensor(py::module_& m)
{
    TensorClass cls(m, "Tensor", py::buffer_protocol(),
                    "Tensor(input_data=None, dtype=None, shape=None, init=None): a tensor over gradstep's core.");
    cls.def(py::init(&makeTensor), py::arg("input_data") = py::none(), py::arg("dtype") = py::none(),
            py::arg("shape") = py::none(), py::arg("init") = py::none(), py::arg("internal") = false,
            py::arg("const_arg") = false)
        .def_buffer(&bufferOf);
    bindConversions(cls);
    bindProperties(cls);
    bindPrinting(cls);
    bindProtocols(cls);
    return cls;
}

} // namespace gradstep::python
