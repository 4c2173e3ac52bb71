// Note [Python identity in hooked calls]. SPDX-License-Identifier: MIT
#include "python/bind/python_identity.h"

#include "python/bind/convert.h"

namespace py = pybind11;

namespace gradstep::python {

namespace {
thread_local PythonIdentityScope* t_innermost = nullptr;
}

PythonIdentityScope::PythonIdentityScope() : m_outer(t_innermost) { t_innermost = this; }

PythonIdentityScope::~PythonIdentityScope() { t_innermost = m_outer; }

void PythonIdentityScope::remember(py::handle object)
{
    if (!t_innermost)
        return;
    if (const Tensor* tensor = asTensor(object)) {
        t_innermost->m_objects.emplace_back(tensor->impl(), py::reinterpret_borrow<py::object>(object));
        return;
    }
    if (PyTuple_Check(object.ptr()) || PyList_Check(object.ptr()))
        for (py::handle item : py::reinterpret_borrow<py::sequence>(object))
            remember(item);
}

py::object PythonIdentityScope::find(const Tensor& tensor)
{
    for (const PythonIdentityScope* scope = t_innermost; scope; scope = scope->m_outer)
        for (auto it = scope->m_objects.rbegin(); it != scope->m_objects.rend(); ++it)
            if (it->first == tensor.impl())
                return it->second;
    return py::object();
}

} // namespace gradstep::python
