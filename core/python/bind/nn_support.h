// What the mindspore.nn binding files share: the argument conversions of the layers (init specs,
// int pairs, Cell inputs) and the bind functions bindNn calls in order (GIL held).
// SPDX-License-Identifier: MIT
#pragma once

#include "api/value.h"
#include "nn/cell.h"
#include "nn/initializer.h"
#include "nn/layers/layer_args.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gradstep::python {

/// weight_init / bias_init / initializer()'s init: None, a string alias in any case
/// ('TruncatedNormal', 'he_uniform'), an Initializer, a Tensor or NumPy array, or a number
/// (Constant). TypeError naming `who` for anything else.
InitSpec toInitSpec(pybind11::handle init, const std::string& who);
/// An int, or a tuple / list of two ints (kernel_size, stride, dilation).
IntPair toIntPair(pybind11::handle value, const std::string& who, const char* what);
/// An int, or a tuple / list of four ints (top, bottom, left, right).
Padding4 toPadding4(pybind11::handle value, const std::string& who);
/// The positional arguments of a call into a core Cell: Tensors, None and tuples or lists of
/// those, as Values. TypeError naming the Cell and the input otherwise (saying that a Cell with a
/// bprop needs them when `bprop`).
std::vector<Value> toCellInputs(const pybind11::args& args, const std::string& cell,
                                bool bprop = false);
/// The name of a Python value's type, for messages.
std::string pyTypeName(pybind11::handle value);

/// The core Cell of a mindspore.nn.Cell object, or null while its __init__ has not run.
Cell* cellOf(pybind11::handle self);
/// The same, with an AttributeError when __init__ has not run.
Cell& initializedCell(pybind11::handle self);
/// Cell.__setattr__: Cells become children, Parameters parameters (renamed to the attribute
/// name), a Tensor assigned to a parameter's name is its set_data; anything else is plain.
void setCellAttribute(const pybind11::object& self, const std::string& name,
                      const pybind11::object& value);
/// Cell.__getattr__ (after the normal lookup failed): children and parameters by name.
pybind11::object getCellAttribute(const pybind11::object& self, const std::string& name);
/// (attribute path, Python Parameter) for every parameter of the Cell `self` and its
/// descendants, in core order; the same Python object for one Parameter on every call.
std::vector<std::pair<std::string, pybind11::object>> parameterObjects(const pybind11::object& self,
                                                                       bool trainableOnly);

/// Registers the Cell `child` under `name` on the Cell `self` (core child, renamed parameters)
/// and keeps its Python object in self._cells. TypeError when child is not a Cell.
void adoptChild(pybind11::handle self, const std::string& name, const pybind11::object& child);
/// Registers the Parameter under `name` on the Cell `self` (renamed to `name`) and keeps it in
/// self._params. TypeError when it is not a Parameter.
void adoptParameter(pybind11::handle self, const std::string& name,
                    const pybind11::object& parameter);
/// Keeps the Python object of a child the core Cell registered itself (WithLossCell's backbone)
/// in self._cells, so a Cell defined in Python lives as long as its owner; no-op for non-Cells.
void keepChild(pybind11::handle self, const std::string& name, const pybind11::object& child);
/// The Python object of child `name`: the one assigned, else a new wrapper kept in self._cells.
pybind11::object childObject(pybind11::handle self, const std::string& name, const CellPtr& child);

/// For a new-style __init__ (first argument value_and_holder&): installs `cell` as the instance's
/// value and returns the instance, so __init__ can go on registering children from Python.
template <class Class, class T>
pybind11::handle constructCell(pybind11::detail::value_and_holder& holder, std::shared_ptr<T> cell)
{
    using Held = typename Class::type;
    pybind11::detail::initimpl::construct<Class>(holder, std::shared_ptr<Held>(std::move(cell)), false);
    return pybind11::handle(reinterpret_cast<PyObject*>(holder.inst));
}

void bindCellClass(pybind11::module_& nn);
/// Cell.register_*_hook and nn.HookHandle (bind_cell_hooks.cpp).
void bindCellHooks(pybind11::module_& nn, const pybind11::object& cellClass);
/// nn.CellList and nn.SequentialCell.
void bindCellContainers(pybind11::module_& nn);
void bindNnLayers(pybind11::module_& nn);
void bindNnLosses(pybind11::module_& nn);
void bindOptimizers(pybind11::module_& nn);
/// The C++ side of loss scaling (nn/_loss_scale.py): the overflow check and the debugger's report.
void bindLossScale(pybind11::module_& nn);
void bindInitializers(pybind11::module_& initializer);

} // namespace gradstep::python
