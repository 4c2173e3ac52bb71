// Argument conversions shared by the mindspore.nn bindings. SPDX-License-Identifier: MIT
#include "python/bind/nn_support.h"

#include "python/bind/value_convert.h"

namespace py = pybind11;

namespace gradstep::python {

namespace {

std::vector<std::int64_t> toInts(py::handle value, const std::string& who, const char* what,
                                 std::size_t count)
{
    const std::string expected = "an int or a tuple of " + std::to_string(count) + " ints";
    if (PyLong_Check(value.ptr()) && !PyBool_Check(value.ptr()))
        return std::vector<std::int64_t>(count, value.cast<std::int64_t>());
    if (!PyTuple_Check(value.ptr()) && !PyList_Check(value.ptr()))
        throw py::type_error("For '" + who + "', the '" + what + "' must be " + expected
                             + ", but got '" + pyTypeName(value) + "'.");
    std::vector<std::int64_t> out;
    for (py::handle item : py::reinterpret_borrow<py::sequence>(value)) {
        if (!PyLong_Check(item.ptr()) || PyBool_Check(item.ptr()))
            throw py::type_error("For '" + who + "', the '" + what + "' must be " + expected
                                 + ", but it holds a '" + pyTypeName(item) + "'.");
        out.push_back(item.cast<std::int64_t>());
    }
    if (out.size() != count)
        throw py::value_error("For '" + who + "', the '" + what + "' must be " + expected
                              + ", but got " + std::to_string(out.size()) + " values.");
    return out;
}

} // namespace

std::string pyTypeName(py::handle value)
{
    return py::str(py::type::handle_of(value).attr("__name__"));
}

IntPair toIntPair(py::handle value, const std::string& who, const char* what)
{
    const auto v = toInts(value, who, what, 2);
    return IntPair(v[0], v[1]);
}

Padding4 toPadding4(py::handle value, const std::string& who)
{
    const auto v = toInts(value, who, "padding", 4);
    return Padding4(v[0], v[1], v[2], v[3]);
}

std::vector<Value> toCellInputs(const py::args& args, const std::string& cell, bool bprop)
{
    std::vector<Value> inputs;
    inputs.reserve(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (!isValueLike(args[i]))
            throw py::type_error("For '" + cell + "', "
                                 + (bprop ? "a Cell with a bprop takes" : "the inputs must be")
                                 + " Tensors (or tuples of Tensors), but input "
                                 + std::to_string(i) + " is of type '" + pyTypeName(args[i])
                                 + "'.");
        inputs.push_back(toValue(args[i], "the input of '" + cell + "'"));
    }
    return inputs;
}

} // namespace gradstep::python
