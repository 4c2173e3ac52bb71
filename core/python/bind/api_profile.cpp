// Applying an API profile to the embedded package before each run. The package is built once
// with every name; the names a profile lacks are deleted from the module for the run and put
// back (the objects taken when the host started) by the next run's profile, which also undoes
// whatever a script assigned to or deleted from them. SPDX-License-Identifier: MIT
#include "python/bind/api_profile.h"
#include "python/bind/bindings.h"

#include "tensor/errors.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace gradstep::python {

namespace {

// Top-level names MindSpore 1.10 lacked: grad, value_and_grad and get_grad came with 2.0
// (SEMANTICS.md §3; 1.10 had them in mindspore.ops only, get_grad not at all) and jit replaced
// ms_function in the 2.0 era (§4.1). ms_function stays in both: 2.2 still exports it.
// vjp, jvp, jacfwd, jacrev and vmap were in mindspore.ops only.
constexpr std::array<const char*, 9> kAbsentIn110 = {"grad", "value_and_grad", "get_grad", "jit", "vjp",
                                                     "jvp", "jacfwd", "jacrev", "vmap"};
constexpr const char* kVersion110 = "1.10.1";

/// The objects the 2.x profile shows, taken by captureApiProfiles (references held until
/// releaseApiProfiles).
std::vector<std::pair<std::string, PyObject*>>& savedNames()
{
    static std::vector<std::pair<std::string, PyObject*>> names;
    return names;
}

} // namespace

bool isApiProfile(std::string_view name) { return name == kApiProfile2x || name == kApiProfile110; }

void captureApiProfiles()
{
    const py::module_ m = py::module_::import("mindspore");
    for (const char* name : kAbsentIn110)
        savedNames().emplace_back(name, py::object(m.attr(name)).release().ptr());
    savedNames().emplace_back("__version__", py::object(m.attr("__version__")).release().ptr());
}

void releaseApiProfiles()
{
    for (auto& [name, object] : savedNames())
        Py_DECREF(object);
    savedNames().clear();
}

void applyApiProfile(const std::string& profile)
{
    if (!isApiProfile(profile))
        throw ValueError("unknown API profile '" + profile + "', expected '2.x' or '1.10'");
    py::module_ m = py::module_::import("mindspore");
    for (const auto& [name, object] : savedNames())
        m.attr(name.c_str()) = py::handle(object);
    if (profile == kApiProfile2x)
        return;
    for (const char* name : kAbsentIn110)
        if (py::hasattr(m, name))
            py::delattr(m, name);
    m.attr("__version__") = kVersion110;
}

} // namespace gradstep::python
