// Python callables as core Functions. SPDX-License-Identifier: MIT
#include "python/bind/grad_adapter.h"

#include "python/bind/convert.h"
#include "python/bind/value_convert.h"
#include "python/jit/jit_compiler.h"

namespace py = pybind11;

namespace gradstep::python {

namespace {

std::string typeName(py::handle object)
{
    return py::str(py::type::handle_of(object).attr("__name__"));
}

// A core slot for one argument: Tensors (Parameters too) as themselves, None and tuples or
// lists of Tensors as Value trees, anything else as a None placeholder the core never reads.
Value slotFor(py::handle arg)
{
    if (const Tensor* tensor = asTensor(arg))
        return Value(*tensor);
    return isValueLike(arg) ? toValue(arg, "an argument") : Value();
}

// MindSpore differentiates a dict output as the tuple of its values, in order, and takes a dict
// sens the same way (tests/st/pynative/grad/test_common_grad.py: a Cell returning a dict).
py::object dictsAsTuples(py::handle object)
{
    if (PyDict_Check(object.ptr())) {
        py::list values;
        for (py::handle value : py::reinterpret_borrow<py::dict>(object).attr("values")())
            values.append(dictsAsTuples(value));
        return py::tuple(values);
    }
    if (PyTuple_Check(object.ptr()) || PyList_Check(object.ptr())) {
        py::list items;
        bool changed = false;
        for (py::handle item : object) {
            py::object converted = dictsAsTuples(item);
            changed = changed || !converted.is(item);
            items.append(converted);
        }
        if (changed)
            return py::tuple(items);
    }
    return py::reinterpret_borrow<py::object>(object);
}

} // namespace

py::object requireCallable(py::handle fn, const std::string& api)
{
    if (!PyCallable_Check(fn.ptr()))
        throw py::type_error("For '" + api
                             + "', the argument 'fn' must be a function or a Cell, but got '"
                             + typeName(fn) + "'.");
    return py::reinterpret_borrow<py::object>(fn);
}

PythonCall::PythonCall(py::object fn, const py::args& args, const py::kwargs& kwargs,
                       std::string api, bool sensParam)
    : m_fn(std::move(fn)), m_kwargs(py::dict(kwargs)), m_api(std::move(api))
{
    py::list all(args);
    // MindSpore also takes the sens as the keyword `sens` (GradOperation, _pynative_forward_run).
    if (sensParam && m_kwargs.contains("sens"))
        all.append(m_kwargs.attr("pop")("sens"));
    m_args = py::tuple(all);
    m_values.reserve(m_args.size());
    const std::size_t last = m_args.size() - 1;
    for (std::size_t i = 0; i < m_args.size(); ++i)
        m_values.push_back(sensParam && i == last ? toValue(dictsAsTuples(m_args[i]), "the sens given to " + m_api)
                                                  : slotFor(m_args[i]));
}

// The Function holds its own references to fn and the arguments, so it does not depend on this
// PythonCall; the core drops it before the gradient function returns (GIL held throughout).
Function PythonCall::function() const
{
    return [fn = m_fn, args = m_args, kwargs = m_kwargs,
            api = m_api](const std::vector<Value>& values) -> Value {
        py::tuple callArgs(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) {
            const py::handle original = args[i];
            const Tensor* given = asTensor(original);
            // A watched input is a new tensor linked to the caller's: hand that one to fn.
            const bool replaced =
                given && values[i].isTensor() && !values[i].tensor().sameAs(*given);
            callArgs[i] =
                replaced ? toPython(values[i]) : py::reinterpret_borrow<py::object>(original);
        }
        // While compiling, fn's source joins the graph (if / while on tensors compile).
        const py::object out =
            jitCompiling() ? compileCall(fn, callArgs, kwargs) : fn(*callArgs, **kwargs);
        return toValue(dictsAsTuples(out), "the function given to " + api);
    };
}

} // namespace gradstep::python
