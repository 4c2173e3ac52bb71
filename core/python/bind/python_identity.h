// Which Python object a Tensor is, within one call of a Cell with hooks. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <pybind11/pybind11.h>

#include <utility>
#include <vector>

namespace gradstep::python {

// Note [Python identity in hooked calls]
// MindSpore hands a Cell's hooks and its construct the very objects it was called with (one
// Tensor passed twice is `inputs[0] is inputs[1]`), and the forward hook the object construct
// returned. A Cell with hooks runs through the core, which holds Tensors, not Python objects, and
// toPython() would make a new object for each. While a scope is alive, the objects remembered in
// it (and in the scopes around it) are what toPython() gives back for their Tensors.
class PythonIdentityScope {
public:
    PythonIdentityScope();
    ~PythonIdentityScope();
    PythonIdentityScope(const PythonIdentityScope&) = delete;
    PythonIdentityScope& operator=(const PythonIdentityScope&) = delete;

    /// Remembers every Tensor in `object` (and in its tuples and lists) as that Python object.
    static void remember(pybind11::handle object);
    /// The object remembered for `tensor`'s handle in the innermost scope that has one, or None
    /// (not an object: pybind11::object() when there is none).
    static pybind11::object find(const Tensor& tensor);

private:
    std::vector<std::pair<const TensorImpl*, pybind11::object>> m_objects;
    PythonIdentityScope* m_outer;
};

} // namespace gradstep::python
