// Python values <-> pipeline arrays. Data crosses by copy, as for tensors: a script may reuse the
// NumPy array a generator yielded. SPDX-License-Identifier: MIT
#include "python/bind/dataset_support.h"

#include "python/bind/convert.h"

#include <cstring>
#include <vector>

namespace py = pybind11;

namespace gradstep::python {

namespace {

py::module_ numpyModule() { return py::module_::import("numpy"); }

std::string typeName(py::handle value) { return py::str(py::type::handle_of(value).attr("__name__")); }

} // namespace

namespace {

/// A NumPy str or bytes array as a string array: str elements as UTF-8, bytes elements as they are
/// (MindSpore keeps bytes and gives them back as str).
data::Array stringArray(const py::array& array)
{
    std::vector<std::int64_t> dims(array.shape(), array.shape() + array.ndim());
    std::vector<std::string> strings;
    strings.reserve(static_cast<std::size_t>(array.size()));
    for (py::handle item : py::list(array.attr("ravel")().attr("tolist")()))
        strings.push_back(item.cast<std::string>());
    return {Shape(dims), std::move(strings)};
}

/// Every element a str or bytes (NumPy gives lists mixing them dtype object).
bool allStrings(const py::array& array)
{
    for (py::handle item : py::list(array.attr("ravel")().attr("tolist")()))
        if (!PyUnicode_Check(item.ptr()) && !PyBytes_Check(item.ptr()))
            return false;
    return array.size() > 0;
}

} // namespace

data::Array toArray(py::handle value, const std::string& where)
{
    if (const Tensor* tensor = asTensor(value))
        return data::Array::fromTensor(*tensor);
    // asarray keeps 0-D values 0-D (ascontiguousarray would make them 1-D).
    py::array array = numpyModule().attr("asarray")(value);
    const char kind = array.dtype().kind();
    if (kind == 'U' || kind == 'S' || (kind == 'O' && allStrings(array)))
        return stringArray(array);
    if (!(array.flags() & py::array::c_style))
        array = numpyModule().attr("ascontiguousarray")(array);
    py::dtype dtype = array.dtype();
    const data::ElementType type{dtype.kind(), static_cast<int>(dtype.itemsize())};
    if (!type.valid())
        throw py::type_error(where + ": expected numbers, strings or NumPy arrays of them, got " + typeName(value)
                             + " of NumPy dtype " + std::string(py::str(static_cast<py::handle>(dtype))));
    if (std::string(py::str(dtype.attr("byteorder"))) == ">")
        array = array.attr("astype")(dtype.attr("newbyteorder")("="));
    std::vector<std::int64_t> dims(array.shape(), array.shape() + array.ndim());
    const auto* first = static_cast<const unsigned char*>(array.data());
    return {type, Shape(dims), std::vector<unsigned char>(first, first + array.nbytes())};
}

data::Row toRow(py::handle value, std::size_t columns, const std::string& where)
{
    data::Row row;
    if (PyTuple_Check(value.ptr())) {
        for (py::handle item : py::reinterpret_borrow<py::tuple>(value))
            row.push_back(toArray(item, where));
    } else {
        row.push_back(toArray(value, where));
    }
    if (row.size() != columns)
        throw py::value_error(where + ": got a row of " + std::to_string(row.size()) + " column(s), expected "
                              + std::to_string(columns) + " as column_names says");
    return row;
}

namespace {

/// MindSpore's test of a source row's item: NumPy could not make an array of numbers or strings
/// of it (object dtype, or nested sequences of different lengths).
bool convertible(py::handle item)
{
    if (asTensor(item))
        return true;
    try {
        const py::array array = numpyModule().attr("asarray")(item);
        return array.dtype().kind() != 'O' || allStrings(array);
    } catch (py::error_already_set& e) {
        if (!e.matches(PyExc_ValueError))
            throw;
        return false;
    }
}

/// One value a source row may be whole: MindSpore makes one column of these and iterates anything
/// else (a tuple or list of column values).
bool singleItem(py::handle value)
{
    return asTensor(value) || py::isinstance<py::array>(value) || PyLong_Check(value.ptr())
           || PyFloat_Check(value.ptr()) || PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr())
           || py::isinstance(value, numpyModule().attr("generic")) || py::isinstance<py::dict>(value);
}

} // namespace

data::Row toSourceRow(py::handle value, std::size_t columns, const std::string& where)
{
    data::Row row;
    if (singleItem(value)) {
        if (!py::isinstance<py::dict>(value) && !convertible(value))
            throw RuntimeError("Data type of the input or its converted Numpy array is expected to be int or float "
                               "or str, but got object.");
        row.push_back(toArray(value, where));
    } else {
        for (py::handle item : value) {
            if (!py::isinstance<py::dict>(item) && !convertible(item))
                throw RuntimeError("Data type of " + std::to_string(row.size() + 1) + "th item of the input or its "
                                   "converted Numpy array is expected to be int or float or str, but got object.");
            row.push_back(toArray(item, where));
        }
    }
    if (row.size() != columns)
        throw RuntimeError("Invalid data, the 'source' of 'GeneratorDataset' should return same number of NumPy "
                           "arrays as specified in column_names, the size of column_names is:" + std::to_string(columns)
                           + " and number of returned NumPy array is:" + std::to_string(row.size()) + ".");
    return row;
}

py::array toNumpy(const data::Array& array)
{
    if (array.isString()) {
        py::list items;
        for (const std::string& s : array.strings())
            items.append(py::reinterpret_steal<py::object>(
                PyUnicode_DecodeUTF8(s.data(), static_cast<py::ssize_t>(s.size()), "replace")));
        py::tuple shape(static_cast<std::size_t>(array.shape().rank()));
        for (int d = 0; d < array.shape().rank(); ++d)
            shape[static_cast<std::size_t>(d)] = py::int_(array.shape()[d]);
        return numpyModule().attr("array")(items, py::arg("dtype") = numpyModule().attr("str_")).attr("reshape")(shape);
    }
    const std::string code = std::string(1, array.type().kind) + std::to_string(array.type().size);
    std::vector<py::ssize_t> shape(array.shape().begin(), array.shape().end());
    py::array out(py::dtype(code), shape);
    if (array.nbytes() > 0)
        std::memcpy(out.mutable_data(), array.bytes(), array.nbytes());
    return out;
}

py::object toPython(const data::Array& array, bool numpy)
{
    // MindSpore gives string columns back as NumPy str arrays in both modes: a Tensor holds numbers.
    if (numpy || array.isString())
        return toNumpy(array);
    if (data::hasTensorDType(array.type()))
        return py::cast(array.toTensor());
    return py::cast(toTensor(toNumpy(array)));
}

} // namespace gradstep::python
