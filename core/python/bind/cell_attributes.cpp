// Attributes of mindspore.nn.Cell objects: assignment registers child Cells and Parameters with
// the core Cell and keeps their Python objects in the instance's _cells and _params dicts (as
// MindSpore's Cell does), so `net.fc is net.fc` and a Python Cell lives as long as its parent.
// SPDX-License-Identifier: MIT
#include "python/host/stack_guard.h"
#include "python/bind/convert.h"
#include "python/bind/nn_support.h"

namespace py = pybind11;

namespace gradstep::python {

namespace {

/// The instance's _cells or _params dict, created on first use.
py::dict registry(py::handle self, const char* key)
{
    py::dict dict = self.attr("__dict__");
    if (!dict.contains(key))
        dict[key] = py::dict();
    return dict[key];
}

void dropFromDict(py::handle self, const std::string& name)
{
    py::dict dict = self.attr("__dict__");
    if (dict.contains(name))
        PyDict_DelItemString(dict.ptr(), name.c_str());
}

void registerCell(py::handle self, Cell& cell, const std::string& name, const py::object& child)
{
    if (!py::isinstance<Cell>(child))
        throw py::type_error("For '" + cell.className() + "', the child '" + name
                             + "' must be a Cell, but got '" + pyTypeName(child) + "'.");
    cell.registerChild(name, child.cast<CellPtr>());
    registry(self, "_cells")[name.c_str()] = child;
    py::dict params = registry(self, "_params");
    if (params.contains(name))
        PyDict_DelItemString(params.ptr(), name.c_str());
    dropFromDict(self, name);
}

void registerParameter(py::handle self, Cell& cell, const std::string& name, const py::object& p)
{
    if (registry(self, "_cells").contains(name))
        throw py::type_error("For '" + cell.className() + "', the attribute '" + name
                             + "' is a child Cell and cannot be replaced by a Parameter.");
    cell.registerParameter(name, p.cast<Parameter>());
    registry(self, "_params")[name.c_str()] = p;
    dropFromDict(self, name);
}

} // namespace

void setCellAttribute(const py::object& self, const std::string& name, const py::object& value)
{
    Cell* cell = cellOf(self);
    const bool isCell = py::isinstance<Cell>(value);
    const bool isParameter = py::isinstance<Parameter>(value);
    if (!cell && (isCell || isParameter))
        throw py::attribute_error(std::string("For 'Cell', can not assign ")
                                  + (isCell ? "cells" : "params")
                                  + " before Cell.__init__() is called (assigning '" + name
                                  + "'); call super().__init__() first.");
    if (cell && isCell)
        return registerCell(self, *cell, name, value);
    if (cell && isParameter)
        return registerParameter(self, *cell, name, value);
    if (cell && registry(self, "_cells").contains(name))
        throw py::type_error("For '" + cell->className() + "', the type of '" + name
                             + "' should be Cell, but got '" + pyTypeName(value) + "'.");
    if (cell && registry(self, "_params").contains(name)) {
        if (!asTensor(value))
            throw py::type_error("For '" + cell->className() + "', the type of '" + name
                                 + "' should be Parameter or Tensor, but got '"
                                 + pyTypeName(value) + "'.");
        registry(self, "_params")[name.c_str()].attr("set_data")(value);
        return;
    }
    if (PyObject_GenericSetAttr(self.ptr(), py::str(name).ptr(), value.ptr()) != 0)
        throw py::error_already_set();
}

Cell* cellOf(py::handle self)
{
    if (!py::isinstance<Cell>(self))
        throw py::type_error("expected a mindspore.nn.Cell, got '" + pyTypeName(self) + "'");
    auto* instance = reinterpret_cast<py::detail::instance*>(self.ptr());
    if (!instance->get_value_and_holder().holder_constructed())
        return nullptr;
    return self.cast<Cell*>();
}

Cell& initializedCell(py::handle self)
{
    Cell* cell = cellOf(self);
    if (!cell)
        throw py::attribute_error("'" + pyTypeName(self)
                                  + "' object is used before Cell.__init__() is called; call "
                                    "super().__init__() first in __init__");
    return *cell;
}

void adoptChild(py::handle self, const std::string& name, const py::object& child)
{
    registerCell(self, initializedCell(self), name, child);
}

void adoptParameter(py::handle self, const std::string& name, const py::object& parameter)
{
    if (!py::isinstance<Parameter>(parameter))
        throw py::type_error("For 'insert_param_to_cell', the param must be a Parameter, but got '"
                             + pyTypeName(parameter) + "'.");
    registerParameter(self, initializedCell(self), name, parameter);
}

void keepChild(py::handle self, const std::string& name, const py::object& child)
{
    if (py::isinstance<Cell>(child))
        registry(self, "_cells")[name.c_str()] = child;
}

py::object childObject(py::handle self, const std::string& name, const CellPtr& child)
{
    py::dict cells = registry(self, "_cells");
    if (cells.contains(name))
        return cells[name.c_str()];
    py::object object = py::cast(child);
    cells[name.c_str()] = object;
    return object;
}

py::object getCellAttribute(const py::object& self, const std::string& name)
{
    checkStackDepth("a Cell's __getattr__");
    Cell* cell = name.rfind("__", 0) == 0 ? nullptr : cellOf(self);
    if (cell) {
        for (const char* key : {"_cells", "_params"}) {
            py::dict dict = registry(self, key);
            if (dict.contains(name))
                return dict[name.c_str()];
        }
        if (CellPtr child = cell->child(name))
            return childObject(self, name, child);
        for (auto& [path, parameter] : cell->parametersAndNames())
            if (path == name) {
                py::object object = py::cast(parameter);
                registry(self, "_params")[name.c_str()] = object;
                return object;
            }
    }
    throw py::attribute_error("'" + pyTypeName(self) + "' object has no attribute '" + name + "'");
}

namespace {

/// The Python object of the parameter at `path` ("fc.weight"): the one assigned, or a wrapper the
/// owning Cell keeps in _params, so every call returns the same object for one Parameter.
py::object parameterObject(const py::object& self, const std::string& path)
{
    py::object owner = self;
    std::size_t start = 0;
    for (std::size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', start)) {
        const std::string name = path.substr(start, dot - start);
        owner = childObject(owner, name, initializedCell(owner).child(name));
        start = dot + 1;
    }
    return getCellAttribute(owner, path.substr(start));
}

} // namespace

/// (path, Python Parameter) for every parameter of `self`, trainable ones only if asked.
std::vector<std::pair<std::string, py::object>> parameterObjects(const py::object& self,
                                                                  bool trainableOnly)
{
    std::vector<std::pair<std::string, py::object>> out;
    for (auto& [path, p] : initializedCell(self).parametersAndNames())
        if (!trainableOnly || p.requiresGrad())
            out.emplace_back(path, parameterObject(self, path));
    return out;
}

} // namespace gradstep::python
