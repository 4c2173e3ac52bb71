// Values <-> Python. SPDX-License-Identifier: MIT
#include "python/bind/value_convert.h"

#include "python/bind/convert.h"
#include "python/bind/python_identity.h"

#include <vector>

namespace py = pybind11;

namespace gradstep::python {

namespace {

Value convert(py::handle object, const std::string& what, const std::string& path)
{
    if (const Tensor* tensor = asTensor(object))
        return Value(*tensor);
    if (object.is_none())
        return Value();
    // A Python number is a constant of the graph, as in MindSpore (its gradient is zero; a
    // function returning only numbers has zero gradients). Python ints are Int64, floats Float32.
    if (isScalar(object) && !PyComplex_Check(object.ptr()))
        return Value(toTensor(object));
    if (PyTuple_Check(object.ptr()) || PyList_Check(object.ptr())) {
        const py::sequence items = py::reinterpret_borrow<py::sequence>(object);
        std::vector<Value> values;
        values.reserve(items.size());
        for (std::size_t i = 0; i < items.size(); ++i)
            values.push_back(convert(items[i], what, path + "[" + std::to_string(i) + "]"));
        return Value::tuple(std::move(values));
    }
    const std::string type = py::str(py::type::handle_of(object).attr("__name__"));
    throw py::type_error(what + " must return Tensors, or tuples and lists of Tensors, but " + path
                         + " is of type '" + type + "'.");
}

} // namespace

py::object toPython(const Value& value)
{
    if (value.isNone())
        return py::none();
    if (value.isTensor()) {
        if (py::object same = PythonIdentityScope::find(value.tensor()))
            return same;
        return py::cast(value.tensor());
    }
    const auto& items = value.items();
    py::tuple tuple(items.size());
    for (std::size_t i = 0; i < items.size(); ++i)
        tuple[i] = toPython(items[i]);
    return tuple;
}

Value toValue(py::handle object, const std::string& what) { return convert(object, what, "output"); }

bool isValueLike(py::handle object)
{
    if (asTensor(object) || object.is_none())
        return true;
    if (!PyTuple_Check(object.ptr()) && !PyList_Check(object.ptr()))
        return false;
    for (py::handle item : py::reinterpret_borrow<py::sequence>(object))
        if (!isValueLike(item))
            return false;
    return true;
}

} // namespace gradstep::python
