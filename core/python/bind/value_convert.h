// Core Values (None, Tensor, tuples) <-> Python objects, for everything that passes Python
// functions to the core (grad, Cells with bprop) and hands the results back (GIL held).
// SPDX-License-Identifier: MIT
#pragma once

#include "api/value.h"

#include <pybind11/pybind11.h>

#include <string>

namespace gradstep::python {

/// None -> None, Tensor -> mindspore.Tensor (a new Python object sharing the storage, or the
/// object it is inside a PythonIdentityScope), tuple -> tuple, recursively.
pybind11::object toPython(const Value& value);

/// A Python result as a Value: Tensors (Parameters too), None, and tuples or lists of those,
/// recursively. Anything else is a TypeError that says where it was found: `what` names the
/// producer ("the function given to grad"), and the message gives the path ("output[1][0]") and
/// the Python type.
Value toValue(pybind11::handle object, const std::string& what);

/// True when `object` can become a Value (see toValue) without error.
bool isValueLike(pybind11::handle object);

} // namespace gradstep::python
