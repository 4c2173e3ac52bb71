// mindspore.Parameter and mindspore.ParameterTuple. A Parameter object holds a core Parameter,
// whose storage the optimizers update in place, so every Python handle sees each step's value.
// ParameterTuple is a subclass of Python's tuple, as in MindSpore, so tuple code keeps working.
// SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"

#include "autodiff/node.h"
#include "nn/parameter.h"

#include <pybind11/stl.h>

#include <string>
#include <vector>

namespace py = pybind11;

namespace gradstep::python {

namespace {

Parameter makeParameter(const py::object& defaultInput, const py::object& name, bool requiresGrad,
                        bool /*layerwiseParallel*/, bool /*parallelOptimizer*/)
{
    if (defaultInput.is_none())
        throw py::type_error("For 'Parameter', 'default_input' must be a Tensor, a NumPy array or a number, "
                             "but got None.");
    const std::string label = name.is_none() ? std::string("Parameter") : std::string(py::str(name));
    return Parameter(toTensor(defaultInput), label, requiresGrad);
}

std::string parameterRepr(const Parameter& p)
{
    std::string shape = "(";
    for (int axis = 0; axis < p.rank(); ++axis)
        shape += (axis ? ", " : "") + std::to_string(p.shape()[axis]);
    shape += p.rank() == 1 ? ",)" : ")";
    return "Parameter (name=" + p.name() + ", shape=" + shape + ", dtype=" + std::string(dtypeName(p.dtype()))
           + ", requires_grad=" + (p.requiresGrad() ? "True" : "False") + ")";
}

void bindParameterClass(py::module_& m)
{
    py::class_<Parameter, Tensor>(m, "Parameter",
                                  "A Tensor with a name whose gradient grad(..., weights=...) returns.")
        .def(py::init(&makeParameter), py::arg("default_input"), py::arg("name") = py::none(),
             py::arg("requires_grad") = true, py::arg("layerwise_parallel") = false,
             py::arg("parallel_optimizer") = true)
        .def_property("name", &Parameter::name, &Parameter::setName)
        .def_property("requires_grad", &Parameter::requiresGrad, &Parameter::setRequiresGrad)
        .def_property_readonly("data", [](const py::object& self) { return self; })
        .def("set_data",
             [](const py::object& self, const py::object& data, bool /*sliceShape*/) {
                 self.cast<Parameter&>().setData(toTensor(data));
                 return self;
             },
             py::arg("data"), py::arg("slice_shape") = false,
             "Replaces the value (the shape and dtype may change); every handle sees the new one.")
        .def("value", [](const Parameter& p) { return Tensor(p.detach()); },
             "The current value as a plain Tensor sharing the storage.")
        .def("clone",
             [](const Parameter& p, const py::object& /*init*/) {
                 return Parameter(p.clone(), p.name(), p.requiresGrad());
             },
             py::arg("init") = "same", "A new Parameter with a copy of the value and the same name.")
        // Wrappers made at different times for one core Parameter must hash alike (dict keys).
        .def("__hash__", [](const Parameter& p) { return static_cast<py::ssize_t>(reinterpret_cast<std::uintptr_t>(p.impl()) >> 4); })
        .def("__repr__", &parameterRepr)
        .def("__str__", &parameterRepr);
}

/// ParameterTuple(iterable): every item must be a Parameter.
py::object newParameterTuple(const py::object& cls, const py::iterable& items)
{
    static const py::detail::type_info* parameterType = py::detail::get_type_info(typeid(Parameter));
    py::list checked;
    std::size_t index = 0;
    for (py::handle item : items) {
        if (!PyObject_TypeCheck(item.ptr(), parameterType->type))
            throw py::type_error("ParameterTuple input should be Parameters, but item " + std::to_string(index)
                                 + " is of type '" + std::string(py::str(py::type::handle_of(item).attr("__name__")))
                                 + "'.");
        checked.append(item);
        ++index;
    }
    return py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyTuple_Type))
        .attr("__new__")(cls, checked);
}

void bindParameterTuple(py::module_& m)
{
    py::dict namespace_;
    namespace_["__module__"] = "mindspore";
    namespace_["__doc__"] = "A tuple of Parameters (what Cell.trainable_params() returns).";
    py::cpp_function create(&newParameterTuple, py::arg("cls"), py::arg("iterable") = py::tuple());
    namespace_["__new__"] = py::reinterpret_steal<py::object>(PyStaticMethod_New(create.ptr()));
    const py::object tupleType = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyTuple_Type));
    m.attr("ParameterTuple") = py::module_::import("builtins").attr("type")("ParameterTuple",
                                                                           py::make_tuple(tupleType), namespace_);
}

} // namespace

void bindParameter(py::module_& m)
{
    bindParameterClass(m);
    bindParameterTuple(m);
}

py::object makeParameterTuple(const std::vector<Parameter>& parameters)
{
    py::list items;
    for (const Parameter& p : parameters)
        items.append(py::cast(p));
    return py::module_::import("mindspore").attr("ParameterTuple")(items);
}

std::vector<Parameter> toParameters(py::handle object, const std::string& what)
{
    static const py::detail::type_info* parameterType = py::detail::get_type_info(typeid(Parameter));
    std::vector<Parameter> out;
    if (PyObject_TypeCheck(object.ptr(), parameterType->type)) {
        out.push_back(object.cast<Parameter>());
        return out;
    }
    if (!PyTuple_Check(object.ptr()) && !PyList_Check(object.ptr()))
        throw py::type_error(what + " must be a Parameter, a list of Parameters or a ParameterTuple, but got '"
                             + std::string(py::str(py::type::handle_of(object).attr("__name__"))) + "'.");
    std::size_t index = 0;
    for (py::handle item : py::reinterpret_borrow<py::sequence>(object)) {
        if (!PyObject_TypeCheck(item.ptr(), parameterType->type))
            throw py::type_error(what + " must hold Parameters only, but item " + std::to_string(index) + " is of type '"
                                 + std::string(py::str(py::type::handle_of(item).attr("__name__"))) + "'.");
        out.push_back(item.cast<Parameter>());
        ++index;
    }
    return out;
}

} // namespace gradstep::python
