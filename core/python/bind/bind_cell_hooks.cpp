// Cell.register_forward_pre_hook / register_forward_hook / register_backward_hook and the handle
// they return (handle.remove()); the hooks themselves run in the core around every call of the
// Cell (nn/cell_hooks.h), so a Cell called from a core container (SequentialCell) runs them too.
// As in MindSpore 2.2 they are PyNative only: not registered in graph mode, not run inside @jit
// or a graph-mode call (nn/cell_hooks_suspension.h).
// SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/nn_support.h"
#include "python/bind/python_identity.h"
#include "python/bind/value_convert.h"
#include "python/jit/jit_runtime.h"

#include "nn/cell.h"

#include <cstdint>
#include <memory>
#include <string>

namespace py = pybind11;

namespace gradstep::python {

namespace {

/// What register_*_hook returns: remove() takes the hook off its Cell (again: no effect).
struct HookHandle {
    std::weak_ptr<Cell> cell;
    std::uint64_t id = 0;

    void remove()
    {
        if (const std::shared_ptr<Cell> owner = cell.lock())
            owner->hooks().remove(id);
    }
};

/// MindSpore takes a Python function or method as a hook, never one decorated with @jit.
void requireFunction(const py::object& fn, const std::string& method)
{
    if (isJitFunction(fn))
        throw py::type_error("Decorating hook function "
                             + std::string(py::str(py::getattr(fn, "__name__", py::str("?"))))
                             + " with '@jit' is not supported.");
    const py::module_ types = py::module_::import("types");
    if (!py::isinstance(fn, types.attr("FunctionType")) && !py::isinstance(fn, types.attr("MethodType")))
        throw py::type_error("When using '" + method + "(hook_fn)', the type of 'hook_fn' must be python "
                             "function, but got " + std::string(py::str(py::type::of(fn))) + ".");
}

/// Outside PyNative a hook is not registered: MindSpore warns and returns a handle whose remove()
/// does nothing (graph mode never runs Cell hooks).
bool pynativeOnly(const std::string& method)
{
    if (!graphModeActive())
        return true;
    py::module_::import("mindspore.log").attr("warning")("'" + method + "' function is only supported in pynative "
                                                         "mode, you can use context.set_context to set pynative mode.");
    return false;
}

/// MindSpore's cell_id: the class name and the object's identity.
std::string cellId(const py::object& self, const Cell& cell)
{
    return cell.className() + "(" + std::to_string(reinterpret_cast<std::uintptr_t>(self.ptr())) + ")";
}

py::tuple asTuple(const std::vector<Value>& values)
{
    py::tuple out(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        out[i] = toPython(values[i]);
    return out;
}

py::tuple asTuple(const TensorList& tensors)
{
    py::tuple out(tensors.size());
    for (std::size_t i = 0; i < tensors.size(); ++i)
        out[i] = toPython(Value(tensors[i]));
    return out;
}

HookHandle handleFor(Cell& cell, std::uint64_t id) { return HookHandle{cell.weak_from_this(), id}; }

HookHandle registerForwardPreHook(const py::object& self, const py::object& fn)
{
    if (!pynativeOnly("register_forward_pre_hook"))
        return HookHandle{};
    requireFunction(fn, "register_forward_pre_hook");
    Cell& cell = initializedCell(self);
    const std::string id = cellId(self, cell);
    const std::string what = "the forward pre-hook of '" + cell.className() + "'";
    return handleFor(cell, cell.hooks().addForwardPre([fn, id, what](const std::vector<Value>& inputs)
                                                          -> std::optional<std::vector<Value>> {
        const py::object result = fn(id, asTuple(inputs));
        if (result.is_none())
            return std::nullopt;
        PythonIdentityScope::remember(result);
        if (py::isinstance<py::tuple>(result)) {
            std::vector<Value> replaced;
            for (py::handle item : result)
                replaced.push_back(toValue(item, what));
            return replaced;
        }
        return std::vector<Value>{toValue(result, what)};
    }));
}

HookHandle registerForwardHook(const py::object& self, const py::object& fn)
{
    if (!pynativeOnly("register_forward_hook"))
        return HookHandle{};
    requireFunction(fn, "register_forward_hook");
    Cell& cell = initializedCell(self);
    const std::string id = cellId(self, cell);
    const std::string what = "the forward hook of '" + cell.className() + "'";
    return handleFor(cell, cell.hooks().addForward([fn, id, what](const std::vector<Value>& inputs,
                                                                   const Value& output) -> std::optional<Value> {
        const py::object given = toPython(output);
        PythonIdentityScope::remember(given); // the object the caller gets when the hook returns None
        const py::object result = fn(id, asTuple(inputs), given);
        if (result.is_none())
            return std::nullopt;
        PythonIdentityScope::remember(result);
        return toValue(result, what);
    }));
}

HookHandle registerBackwardHook(const py::object& self, const py::object& fn)
{
    if (!pynativeOnly("register_backward_hook"))
        return HookHandle{};
    requireFunction(fn, "register_backward_hook");
    Cell& cell = initializedCell(self);
    const std::string id = cellId(self, cell);
    const std::string what = "the backward hook of '" + cell.className() + "'";
    return handleFor(cell, cell.hooks().addBackward([fn, id, what](const TensorList& outputGrads,
                                                                    const TensorList& inputGrads)
                                                        -> std::optional<TensorList> {
        const py::object result = fn(id, asTuple(outputGrads), asTuple(inputGrads));
        if (result.is_none())
            return std::nullopt;
        PythonIdentityScope::remember(result);
        const TensorList replaced = toValue(result, what).leaves();
        return replaced;
    }));
}

} // namespace

void bindCellHooks(py::module_& nn, const py::object& cellClass)
{
    py::class_<HookHandle>(nn, "HookHandle", "Returned by Cell.register_*_hook: remove() takes the hook off.")
        .def("remove", &HookHandle::remove, "Removes the hook (again: no effect).");
    const auto method = [&cellClass](const char* name, auto fn, const char* doc) {
        cellClass.attr(name) = py::cpp_function(fn, py::name(name), py::is_method(cellClass), py::arg("hook_fn"), doc);
    };
    method("register_forward_pre_hook", &registerForwardPreHook,
           "hook_fn(cell_id, inputs) runs before construct; what it returns (not None) replaces the inputs.");
    method("register_forward_hook", &registerForwardHook,
           "hook_fn(cell_id, inputs, output) runs after construct; what it returns (not None) replaces the output.");
    method("register_backward_hook", &registerBackwardHook,
           "hook_fn(cell_id, grad_input, grad_output) gets the gradients of the outputs (grad_input) and of "
           "the Tensor inputs (grad_output); what it returns (not None) replaces the latter.");
}

} // namespace gradstep::python
