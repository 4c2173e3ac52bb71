// mindspore.float32, int8, uint16, bfloat16, bool_, ... and their aliases (also on
// mindspore.common.dtype, imported by scripts as mstype): one object per dtype, printed as
// MindSpore prints them ("Float32"); dtype_to_nptype, dtype_to_pytype, pytype_to_dtype.
// SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"

#include <array>
#include <string>

namespace py = pybind11;

namespace gradstep::python {

namespace {

/// A MindSpore type object: a tensor dtype, or one of the generic number types int_, uint and
/// float_ (MindSpore's Int(), UInt(), Float(): no width, so no tensor has them).
struct TypeObject {
    DType dtype;
    const char* generic = nullptr;

    std::string name() const { return generic ? generic : std::string(dtypeName(dtype)); }
};

/// The dtype objects, created once by bindDtypes and released just before Python finalises.
std::array<PyObject*, kDTypeCount>& dtypeObjects()
{
    static std::array<PyObject*, kDTypeCount> objects{};
    return objects;
}

const char* attributeName(DType dtype)
{
    // mindspore.bool_ (bool is Python's); the others as NumPy spells them. Literals: NUL-terminated.
    return dtype == DType::Bool ? "bool_" : dtypeLowerName(dtype).data();
}

/// mindspore.common.dtype's other names for the same objects.
constexpr std::pair<const char*, DType> kAliases[] = {
    {"byte", DType::Int8},     {"short", DType::Int16},   {"intc", DType::Int32},
    {"intp", DType::Int64},    {"ubyte", DType::UInt8},   {"ushort", DType::UInt16},
    {"uintc", DType::UInt32},  {"uintp", DType::UInt64},  {"half", DType::Float16},
    {"single", DType::Float32}, {"double", DType::Float64}};

DType fromNumpyDType(py::handle dtype, py::handle original)
{
    if (const std::optional<DType> d = numpyDType(py::reinterpret_borrow<py::dtype>(dtype)))
        return *d;
    throw py::type_error("dtype " + py::repr(original).cast<std::string>()
                         + " is not supported: use a mindspore dtype such as mindspore.float32");
}

py::object numpy() { return py::module_::import("numpy"); }

char numpyKind(DType d)
{
    if (d == DType::Bool)
        return 'b';
    if (isComplex(d))
        return 'c';
    return isFloating(d) ? 'f' : isUnsigned(d) ? 'u' : 'i';
}

} // namespace

std::optional<DType> numpyDType(const py::dtype& dtype)
{
    const auto size = static_cast<std::size_t>(dtype.itemsize());
    for (DType d : kAllDTypes)
        if (d != DType::BFloat16 && itemSize(d) == size && numpyKind(d) == dtype.kind())
            return d;
    return std::nullopt;
}

py::object dtypeObject(DType dtype)
{
    return py::reinterpret_borrow<py::object>(dtypeObjects()[static_cast<std::size_t>(dtype)]);
}

const char* numpyName(DType dtype)
{
    switch (dtype) {
    case DType::Bool: return "bool_";
    case DType::BFloat16:
        throw py::type_error("NumPy has no bfloat16: convert the tensor with astype(mindspore.float32) "
                             "before asnumpy()");
    default: return attributeName(dtype);
    }
}

DType toDType(py::handle dtype)
{
    if (py::isinstance<TypeObject>(dtype)) {
        const TypeObject& t = dtype.cast<const TypeObject&>();
        if (t.generic)
            throw py::type_error("mindspore." + t.name() + " has no width and no tensor has it: use a dtype such as "
                                 "mindspore.float32");
        return t.dtype;
    }
    if (dtype.ptr() == reinterpret_cast<PyObject*>(&PyFloat_Type))
        return DType::Float64;
    if (dtype.ptr() == reinterpret_cast<PyObject*>(&PyLong_Type))
        return DType::Int64;
    if (dtype.ptr() == reinterpret_cast<PyObject*>(&PyBool_Type))
        return DType::Bool;
    if (dtype.ptr() == reinterpret_cast<PyObject*>(&PyComplex_Type))
        return DType::Complex128;
    if (dtype.is_none())
        throw py::type_error("dtype must be a mindspore dtype such as mindspore.float32, got None");
    py::object numpyDType;
    try {
        numpyDType = numpy().attr("dtype")(dtype);
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

namespace {

// MindSpore's dtype_to_pytype: the Python type a dtype's scalars are.
py::object pythonType(py::handle type)
{
    const TypeObject& t = type.cast<const TypeObject&>();
    if (!t.generic && t.dtype == DType::Bool)
        return py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyBool_Type));
    if (!t.generic && isComplex(t.dtype))
        return py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyComplex_Type));
    const bool floating = t.generic ? std::string(t.generic) == "Float" : isFloating(t.dtype);
    return py::reinterpret_borrow<py::object>(
        reinterpret_cast<PyObject*>(floating ? &PyFloat_Type : &PyLong_Type));
}

// MindSpore's pytype_to_dtype: NumPy dtypes and scalar types, Python bool/int/float, or a
// mindspore type as is.
py::object mindsporeType(py::handle obj)
{
    if (py::isinstance<TypeObject>(obj))
        return py::reinterpret_borrow<py::object>(obj);
    const bool pythonScalarType = obj.ptr() == reinterpret_cast<PyObject*>(&PyFloat_Type)
                                  || obj.ptr() == reinterpret_cast<PyObject*>(&PyComplex_Type)
                                  || obj.ptr() == reinterpret_cast<PyObject*>(&PyLong_Type)
                                  || obj.ptr() == reinterpret_cast<PyObject*>(&PyBool_Type);
    const bool numpyType = py::isinstance(obj, numpy().attr("dtype"))
                           || (PyType_Check(obj.ptr())
                               && PyObject_IsSubclass(obj.ptr(), numpy().attr("generic").ptr()) == 1);
    if (!pythonScalarType && !numpyType)
        throw py::type_error("The python type " + py::str(obj).cast<std::string>()
                             + " cannot be converted to MindSpore type.");
    return dtypeObject(toDType(obj));
}

} // namespace

void bindDtypes(py::module_& m, py::module_& dtypeModule)
{
    py::class_<TypeObject>(dtypeModule, "Type")
        .def("__repr__", &TypeObject::name)
        .def("__str__", &TypeObject::name)
        .def("__hash__", [](const TypeObject& t) {
            return t.generic ? 100 + static_cast<int>(t.generic[0]) : static_cast<int>(t.dtype);
        })
        .def("__eq__", [](const TypeObject& t, py::handle other) -> py::object {
            if (!py::isinstance<TypeObject>(other))
                return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            const TypeObject& o = other.cast<const TypeObject&>();
            return py::bool_(o.name() == t.name());
        });
    for (DType dtype : kAllDTypes) {
        py::object object = py::cast(TypeObject{dtype});
        dtypeObjects()[static_cast<std::size_t>(dtype)] = object.inc_ref().ptr();
        m.attr(attributeName(dtype)) = object;
        dtypeModule.attr(attributeName(dtype)) = object;
    }
    for (const auto& [alias, dtype] : kAliases) {
        m.attr(alias) = dtypeObject(dtype);
        dtypeModule.attr(alias) = dtypeObject(dtype);
    }
    for (const char* generic : {"Int", "UInt", "Float"}) {
        py::object object = py::cast(TypeObject{DType::Float32, generic});
        const std::string name = generic[0] == 'I' ? "int_" : generic[0] == 'U' ? "uint" : "float_";
        m.attr(name.c_str()) = object;
        dtypeModule.attr(name.c_str()) = object;
    }
    py::tuple intType = py::make_tuple(dtypeObject(DType::Int8), dtypeObject(DType::Int16),
                                       dtypeObject(DType::Int32), dtypeObject(DType::Int64));
    py::tuple uintType = py::make_tuple(dtypeObject(DType::UInt8), dtypeObject(DType::UInt16),
                                        dtypeObject(DType::UInt32), dtypeObject(DType::UInt64));
    py::tuple floatType = py::make_tuple(dtypeObject(DType::Float16), dtypeObject(DType::Float32),
                                         dtypeObject(DType::Float64), dtypeObject(DType::BFloat16));
    dtypeModule.attr("int_type") = intType;
    dtypeModule.attr("uint_type") = uintType;
    dtypeModule.attr("float_type") = floatType;
    py::tuple complexType = py::make_tuple(dtypeObject(DType::Complex64), dtypeObject(DType::Complex128));
    dtypeModule.attr("complex_type") = complexType;
    dtypeModule.attr("number_type") = intType + uintType + floatType + complexType;
    dtypeModule.attr("all_types") = py::make_tuple(dtypeObject(DType::Bool)) + intType + uintType + floatType
                                    + complexType;
    dtypeModule.attr("dtype_to_nptype") = py::cpp_function(
        [](py::handle dtype) { return numpy().attr(numpyName(toDType(dtype))); }, py::arg("type_"));
    dtypeModule.attr("dtype_to_pytype") = py::cpp_function(
        [](py::handle type) {
            if (!py::isinstance<TypeObject>(type))
                throw py::type_error("dtype_to_pytype needs a mindspore type, got "
                                     + py::repr(type).cast<std::string>());
            return pythonType(type);
        },
        py::arg("type_"));
    dtypeModule.attr("pytype_to_dtype") = py::cpp_function(&mindsporeType, py::arg("obj"));
    for (const char* name : {"dtype_to_nptype", "dtype_to_pytype", "pytype_to_dtype"})
        m.attr(name) = dtypeModule.attr(name);
}

} // namespace gradstep::python
