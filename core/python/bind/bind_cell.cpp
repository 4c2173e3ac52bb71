// mindspore.nn.Cell: the core Cell with a trampoline, so Python subclasses with __init__,
// construct and bprop work both when Python calls them and when a core Cell (WithLossCell,
// SequentialCell) does. See Note [Calling a Cell from Python]. Attribute assignment is in
// cell_attributes.cpp.
// SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/bprop_check.h"
#include "python/bind/convert.h"
#include "python/jit/jit_compiler.h"
#include "python/jit/jit_runtime.h"
#include "python/bind/nn_support.h"
#include "python/bind/python_identity.h"
#include "python/host/run_amp.h"
#include "python/host/run_checkpoint.h"
#include "python/host/stack_guard.h"
#include "python/bind/value_convert.h"

#include "autodiff/context.h"
#include "nn/cell_hooks_suspension.h"
#include "nn/cell_inputs_cast.h"

#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace gradstep::python {

namespace {

// A Cell defined in Python. Every override finds the instance's Python object and calls the
// method of the same name; construct and bprop cross as Values (value_convert.h).
class PyCell : public Cell {
public:
    using Cell::Cell;

    Value construct(const std::vector<Value>& args) override
    {
        py::gil_scoped_acquire gil;
        py::object construct = self().attr("construct");
        py::object result = jitCompiling()
                                ? compileInline(construct, py::tuple(toPythonArgs(args)), py::dict())
                                : construct(*toPythonArgs(args));
        return toValue(result, "construct of Cell '" + className() + "'");
    }

    bool hasBprop() const override
    {
        py::gil_scoped_acquire gil;
        const py::handle object = handle();
        return object && py::hasattr(py::type::handle_of(object), "bprop");
    }

    Value bprop(const std::vector<Value>& args, const Value& out, const Value& dout) override
    {
        py::gil_scoped_acquire gil;
        const py::list inputs = toPythonArgs(args);
        py::list items = toPythonArgs(args);
        items.append(toPython(out));
        items.append(toPython(dout));
        const py::object cell = self();
        checkBpropUsesNoParameter(cell);
        py::object result = cell.attr("bprop")(*items);
        checkBpropGradients(inputs, result, className());
        return toValue(result, "bprop of Cell '" + className() + "'");
    }

protected:
    std::string extraRepr() const override
    {
        py::gil_scoped_acquire gil;
        const py::handle object = handle();
        if (!object || !py::hasattr(py::type::handle_of(object), "extend_repr"))
            return {};
        return py::str(object.attr("extend_repr")());
    }

private:
    py::handle handle() const
    {
        static const py::detail::type_info* cellType = py::detail::get_type_info(typeid(Cell));
        return py::detail::get_object_handle(static_cast<const Cell*>(this), cellType);
    }

    py::object self() const
    {
        const py::handle object = handle();
        if (!object)
            throw RuntimeError("the Python object of Cell '" + className()
                               + "' was deleted while the core still calls it; keep a reference");
        return py::reinterpret_borrow<py::object>(object);
    }

    static py::list toPythonArgs(const std::vector<Value>& args)
    {
        py::list items;
        for (const Value& arg : args)
            items.append(toPython(arg));
        return items;
    }
};

using CellClass = py::class_<Cell, PyCell, std::shared_ptr<Cell>>;

/// nn.Cell.construct, owned by the class for the interpreter's lifetime (set by bindCellClass).
PyObject* g_baseConstruct = nullptr;

/// True for a Python subclass of a core layer that defines its own construct.
bool overridesConstruct(py::handle self)
{
    return py::type::handle_of(self).attr("construct").ptr() != g_baseConstruct;
}

/// A Python Cell with hooks: its construct runs between them (Cell::callHooked), which needs its
/// inputs and output as Values (Tensors, None, tuples), as MindSpore's hooks take Tensors.
py::object callPythonCellWithHooks(const py::object& self, Cell& cell, const py::tuple& args,
                                   const py::kwargs& kwargs)
{
    const std::string what = "For '" + cell.className() + "', a Cell with hooks";
    if (!kwargs.empty())
        throw py::type_error(what + " takes positional inputs only, but got keyword arguments.");
    const PythonIdentityScope identity; // the hooks and construct see the caller's objects
    std::vector<Value> given;
    for (py::handle arg : args) {
        PythonIdentityScope::remember(arg);
        given.push_back(toValue(arg, what + " takes Tensors, None and tuples as inputs: the input"));
    }
    const Value out = cell.callHooked(given, [&self, &what](const std::vector<Value>& in) {
        py::tuple callArgs(in.size());
        for (std::size_t i = 0; i < in.size(); ++i)
            callArgs[i] = toPython(in[i]);
        const py::object result = self.attr("construct")(*callArgs);
        PythonIdentityScope::remember(result);
        return toValue(result, what + " returns Tensors, None and tuples: construct");
    });
    return toPython(out);
}

// Note [Calling a Cell from Python]
// A Cell defined in Python and without a bprop (or a Python subclass of a core layer that
// overrides construct, which core wrappers calling it would not see) runs its construct directly, with the Python
// arguments as given (any objects, keywords too) and its result returned as is; only the scope is
// set, by the rule Cell::operator() uses (class name at top level, attribute name below). Every
// other Cell goes through the core: core Cells, and Python Cells with a bprop, whose custom-bprop
// node needs Values. Those take positional Tensors (or tuples of them, or None) only: anything
// else is a TypeError naming the Cell, as MindSpore's bprop Cells accept Tensor inputs only.
/// A Cell whose inputs set_inputs described checks each call against the description.
void checkDescribedInputs(const py::object& self, const py::args& args)
{
    PyObject** dict = _PyObject_GetDictPtr(self.ptr());
    if (!dict || !*dict)
        return;
    PyObject* described = PyDict_GetItemString(*dict, "_gradstep_inputs"); // borrowed
    if (described && described != Py_None)
        py::module_::import("mindspore.nn._cell_api").attr("_check_set_inputs")(self, args);
}

/// out (any Python object a construct returns) with the float Tensors in it, and in its tuples
/// and lists, cast to the Cell's output dtype (Cell::castOutput for Python results).
py::object castPythonOutput(const Cell& cell, const py::object& out)
{
    if (!cell.outputCast())
        return out;
    if (const Tensor* t = asTensor(out))
        return toPython(cell.castOutput(Value(*t)));
    if (py::isinstance<py::tuple>(out) || py::isinstance<py::list>(out)) {
        py::list items;
        for (py::handle item : out)
            items.append(castPythonOutput(cell, py::reinterpret_borrow<py::object>(item)));
        return py::isinstance<py::tuple>(out) ? py::object(py::tuple(items)) : py::object(items);
    }
    return out;
}

/// args with the float Tensors in them (and in their tuples and lists) cast to the Cell's own
/// mixed-precision type (Cell::castInputs for Python arguments).
py::object castPythonInput(const Cell& cell, const py::object& arg)
{
    if (const Tensor* t = asTensor(arg)) {
        const std::vector<Value> cast = castCellInputs(cell, {Value(*t)});
        return cast.front().tensor().sameAs(*t) ? arg : toPython(cast.front());
    }
    if (py::isinstance<py::tuple>(arg) || py::isinstance<py::list>(arg)) {
        py::list items;
        for (py::handle item : arg)
            items.append(castPythonInput(cell, py::reinterpret_borrow<py::object>(item)));
        return py::isinstance<py::tuple>(arg) ? py::object(py::tuple(items)) : py::object(items);
    }
    return arg;
}

py::tuple castPythonInputs(const Cell& cell, const py::args& args)
{
    if (!cell.mixedPrecision())
        return args;
    py::list items;
    for (py::handle arg : args)
        items.append(castPythonInput(cell, py::reinterpret_borrow<py::object>(arg)));
    return py::tuple(items);
}

py::object callCell(const py::object& self, const py::args& args, const py::kwargs& kwargs)
{
    checkStackDepth("a Cell");
    checkDescribedInputs(self, args);
    loadRunCheckpointInto(self);
    applyRunAmpInto(self);
    // Graph mode ignores Cell hooks, also where its Cells run as Python (cell_hooks_suspension.h).
    std::optional<CellHooksSuspension> noHooks;
    if (graphModeActive())
        noHooks.emplace();
    if (compilesCell(self)) {
        MixedPrecisionGuard mixed(initializedCell(self).mixedPrecision()); // the trace holds the casts
        if (py::object result = callCellCompiled(self, args, kwargs))
            return result; // null: its construct calls a gradient function and runs in Python
    }
    Cell& cell = initializedCell(self);
    const bool python = dynamic_cast<PyCell*>(&cell) != nullptr;
    if ((python && !cell.hasBprop()) || (!python && overridesConstruct(self))) {
        const bool nested = executionContext().scope != nullptr;
        ScopeGuard scope(nested && !cell.attributeName().empty() ? cell.attributeName()
                                                                 : cell.className());
        const py::tuple given = castPythonInputs(cell, args);
        py::object out;
        {
            MixedPrecisionGuard mixed(cell.mixedPrecision());
            if (jitCompiling()) // graph mode: the construct's source joins the graph
                out = compileInline(self.attr("construct"), given, kwargs);
            else if (!cell.hooks().empty() && !cellHooksSuspended())
                out = callPythonCellWithHooks(self, cell, given, kwargs);
            else
                out = self.attr("construct")(*given, **kwargs);
        }
        return castPythonOutput(cell, out);
    }
    const std::string rule = python ? "a Cell with a bprop takes " : "";
    if (!kwargs.empty())
        throw py::type_error("For '" + cell.className() + "', " + (python ? rule : "construct takes ")
                             + "positional inputs only, but got keyword arguments.");
    std::optional<PythonIdentityScope> identity; // a core Cell's hooks see the caller's objects too
    if (!cell.hooks().empty() && !cellHooksSuspended()) {
        identity.emplace();
        PythonIdentityScope::remember(args);
    }
    return toPython(cell(toCellInputs(args, cell.className(), python)));
}

/// Cell.construct as a method: a Python Cell without its own construct, or a core Cell's
/// computation without the scope (MindSpore runs construct bare too).
py::object baseConstruct(const py::object& self, const py::args& args, const py::kwargs& kwargs)
{
    Cell& cell = initializedCell(self);
    if (dynamic_cast<PyCell*>(&cell))
        return py::none(); // MindSpore 2.2's Cell.construct does nothing (tests/ut/.../test_cell.py)
    if (!kwargs.empty())
        throw py::type_error("For '" + cell.className()
                             + "', construct takes positional inputs only.");
    return toPython(cell.construct(toCellInputs(args, cell.className())));
}

py::list parameterList(const py::object& self, bool trainableOnly)
{
    py::list out;
    for (auto& entry : parameterObjects(self, trainableOnly))
        out.append(entry.second);
    return out;
}

/// (name, cell) for `self` and every descendant, depth first, each Cell once.
void collectCells(const py::object& self, const std::string& prefix, py::list& out,
                  std::vector<const Cell*>& seen)
{
    const Cell& cell = initializedCell(self);
    for (const Cell* s : seen)
        if (s == &cell)
            return;
    seen.push_back(&cell);
    out.append(py::make_tuple(prefix, self));
    for (const auto& [name, child] : cell.children())
        collectCells(childObject(self, name, child), prefix.empty() ? name : prefix + "." + name,
                     out, seen);
}

void bindCellMethods(CellClass& cls)
{
    cls.def("__call__", &callCell)
        .def("construct", &baseConstruct)
        .def("__setattr__", &setCellAttribute)
        .def("__getattr__", &getCellAttribute)
        .def("trainable_params",
             [](const py::object& self, bool) {
                 return parameterList(self, true);
             },
             py::arg("recurse") = true)
        .def("get_parameters",
             [](const py::object& self, bool) {
                 return parameterList(self, false).attr("__iter__")();
             },
             py::arg("expand") = true)
        .def("parameters_and_names",
             [](const py::object& self, const std::string& prefix, bool) {
                 py::list out;
                 for (auto& [path, p] : parameterObjects(self, false))
                     out.append(py::make_tuple(prefix.empty() ? path : prefix + "." + path, p));
                 return out.attr("__iter__")();
             },
             py::arg("name_prefix") = "", py::arg("expand") = true)
        .def("cells_and_names",
             [](const py::object& self, const py::object&, const std::string& prefix) {
                 py::list out;
                 std::vector<const Cell*> seen;
                 collectCells(self, prefix, out, seen);
                 return out.attr("__iter__")();
             },
             py::arg("cells") = py::none(), py::arg("name_prefix") = "")
        .def("name_cells",
             [](const py::object& self) {
                 py::object out = py::module_::import("collections").attr("OrderedDict")();
                 for (const auto& [name, child] : initializedCell(self).children())
                     out[py::str(name)] = childObject(self, name, child);
                 return out;
             })
        .def("cells",
             [](const py::object& self) {
                 py::list out;
                 for (const auto& [name, child] : initializedCell(self).children())
                     out.append(childObject(self, name, child));
                 return out.attr("__iter__")();
             })
        .def("insert_child_to_cell",
             [](const py::object& self, const std::string& name, const py::object& child) {
                 adoptChild(self, name, child);
             },
             py::arg("child_name"), py::arg("child_cell"))
        .def("insert_param_to_cell",
             [](const py::object& self, const std::string& name, const py::object& p, bool) {
                 adoptParameter(self, name, p);
             },
             py::arg("param_name"), py::arg("param"), py::arg("check_name_contain_dot") = true)
        .def("_remove_registered",
             [](const py::object& self, const std::string& name) {
                 Cell& cell = initializedCell(self);
                 const bool removed = cell.removeChild(name) || cell.removeParameter(name);
                 for (const char* store : {"_cells", "_params"}) {
                     py::object dict = py::getattr(self, "__dict__").attr("get")(store);
                     if (!dict.is_none() && dict.contains(name)) {
                         dict.attr("pop")(name);
                         return true;
                     }
                 }
                 return removed;
             },
             py::arg("name"), "Unregisters the child Cell or Parameter `name`; False when there is none.");
}

void bindCellState(CellClass& cls)
{
    cls.def("set_train",
            [](const py::object& self, bool mode) {
                initializedCell(self).setTrain(mode);
                return self;
            },
            py::arg("mode") = true, "Training mode for this Cell and its descendants.")
        .def("set_grad", [](const py::object& self, bool) { return self; },
             py::arg("requires_grad") = true,
             "Accepted for compatibility: PyNative records whenever grad is taken.")
        .def_property_readonly("training",
                               [](const py::object& self) { return initializedCell(self).training(); })
        .def_property_readonly("cls_name",
                               [](const py::object& self) { return initializedCell(self).className(); })
        .def("_set_mixed_precision",
             [](const py::object& self, const py::object& dtype) {
                 initializedCell(self).setMixedPrecision(
                     runAmpDType(dtype.is_none() ? std::nullopt : std::optional<DType>(toDType(dtype))));
             },
             py::arg("dtype"), "gradstep: the dtype this Cell's ops compute in (Cell.to_float), None to inherit.")
        .def("_set_output_cast",
             [](const py::object& self, const py::object& dtype) {
                 initializedCell(self).setOutputCast(
                     runAmpDType(dtype.is_none() ? std::nullopt : std::optional<DType>(toDType(dtype))));
             },
             py::arg("dtype"), "gradstep: the dtype this Cell's float outputs are cast to after each call.")
        .def("_get_mixed_precision",
             [](const py::object& self) -> py::object {
                 const std::optional<DType> d = initializedCell(self).mixedPrecision();
                 return d ? dtypeObject(*d) : py::none();
             })
        .def("__repr__", [](const py::object& self) { return initializedCell(self).toString(); });
}

} // namespace

void bindCellClass(py::module_& nn)
{
    CellClass cls(nn, "Cell", py::dynamic_attr(),
                  "The base of networks: subclass it, assign layers and Parameters in __init__ "
                  "after super().__init__(), and compute in construct.");
    cls.def("__init__",
            [](py::detail::value_and_holder& holder, bool autoPrefix, const py::object&) {
                const py::handle type(reinterpret_cast<PyObject*>(Py_TYPE(holder.inst)));
                std::shared_ptr<Cell> cell =
                    std::make_shared<PyCell>(py::str(type.attr("__name__")), autoPrefix);
                py::detail::initimpl::construct<CellClass>(holder, std::move(cell), true);
            },
            py::detail::is_new_style_constructor(), py::arg("auto_prefix") = true,
            py::arg("flags") = py::none());
    bindCellMethods(cls);
    bindCellState(cls);
    bindCellHooks(nn, cls);
    g_baseConstruct = cls.attr("construct").ptr();
}

void bindNn(py::module_& nn, py::module_& initializer)
{
    bindInitializers(initializer);
    bindCellClass(nn);
    bindCellContainers(nn);
    bindNnLayers(nn);
    bindNnLosses(nn);
    bindOptimizers(nn);
    bindLossScale(nn);
}

} // namespace gradstep::python
