// mindspore.float32, float64, int32, int64, bool_ (also on mindspore.common.dtype, imported by
// scripts as mstype): one object per dtype, printed as MindSpore prints them ("Float32").
// SPDX-License-Identifier: MIT
#include "python/bindings.h"
#include "python/convert.h"

#include <array>
#include <string>

namespace py = pybind11;

namespace gradstep::python {

namespace {

struct TypeObject {
    DType dtype;
};

constexpr std::array<DType, 5> kDTypes{DType::Bool, DType::Int32, DType::Int64, DType::Float32, DType::Float64};

/// The dtype objects, created once by bindDtypes and released just before Python finalises.
std::array<PyObject*, kDTypes.size()>& dtypeObjects()
{
    static std::array<PyObject*, kDTypes.size()> objects{};
    return objects;
}

const char* attributeName(DType dtype)
{
    switch (dtype) {
    case DType::Bool: return "bool_";
    case DType::Int32: return "int32";
    case DType::Int64: return "int64";
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    }
    return "float32";
}

DType fromNumpyDType(py::handle dtype, py::handle original)
{
    const auto numpyDType = py::reinterpret_borrow<py::dtype>(dtype);
    const char kind = numpyDType.kind();
    const auto size = numpyDType.itemsize();
    if (kind == 'b')
        return DType::Bool;
    if (kind == 'f' && (size == 4 || size == 8))
        return size == 4 ? DType::Float32 : DType::Float64;
    if (kind == 'i' && (size == 4 || size == 8))
        return size == 4 ? DType::Int32 : DType::Int64;
    throw py::type_error("dtype " + py::repr(original).cast<std::string>()
                         + " is not supported: use mindspore.float32, float64, int32, int64 or bool_");
}

} // namespace

py::object dtypeObject(DType dtype)
{
    return py::reinterpret_borrow<py::object>(dtypeObjects()[static_cast<std::size_t>(dtype)]);
}

const char* numpyName(DType dtype)
{
    switch (dtype) {
    case DType::Bool: return "bool";
    case DType::Int32: return "int32";
    case DType::Int64: return "int64";
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    }
    return "float32";
}

DType toDType(py::handle dtype)
{
    if (py::isinstance<TypeObject>(dtype))
        return dtype.cast<const TypeObject&>().dtype;
    if (dtype.ptr() == reinterpret_cast<PyObject*>(&PyFloat_Type))
        return DType::Float64;
    if (dtype.ptr() == reinterpret_cast<PyObject*>(&PyLong_Type))
        return DType::Int64;
    if (dtype.ptr() == reinterpret_cast<PyObject*>(&PyBool_Type))
        return DType::Bool;
    if (dtype.is_none())
        throw py::type_error("dtype must be a mindspore dtype such as mindspore.float32, got None");
    py::object numpyDType;
    try {
        numpyDType = py::module_::import("numpy").attr("dtype")(dtype);
    } catch (py::error_already_set&) {
        throw py::type_error("dtype must be a mindspore dtype such as mindspore.float32, got "
                             + py::repr(dtype).cast<std::string>());
    }
    return fromNumpyDType(numpyDType, dtype);
}

void releaseDtypes()
{
    for (PyObject*& object : dtypeObjects()) {
        Py_XDECREF(object);
        object = nullptr;
    }
}

void bindDtypes(py::module_& m, py::module_& dtypeModule)
{
    py::class_<TypeObject>(dtypeModule, "Type")
        .def("__repr__", [](const TypeObject& t) { return std::string(dtypeName(t.dtype)); })
        .def("__str__", [](const TypeObject& t) { return std::string(dtypeName(t.dtype)); })
        .def("__hash__", [](const TypeObject& t) { return static_cast<int>(t.dtype); })
        .def("__eq__", [](const TypeObject& t, py::handle other) -> py::object {
            if (!py::isinstance<TypeObject>(other))
                return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(other.cast<const TypeObject&>().dtype == t.dtype);
        });
    for (DType dtype : kDTypes) {
        py::object object = py::cast(TypeObject{dtype});
        dtypeObjects()[static_cast<std::size_t>(dtype)] = object.inc_ref().ptr();
        m.attr(attributeName(dtype)) = object;
        dtypeModule.attr(attributeName(dtype)) = object;
    }
    dtypeModule.attr("dtype_to_nptype") = py::cpp_function(
        [](py::handle dtype) { return py::module_::import("numpy").attr(numpyName(toDType(dtype))); },
        py::arg("type_"));
    m.attr("dtype_to_nptype") = dtypeModule.attr("dtype_to_nptype");
}

} // namespace gradstep::python
