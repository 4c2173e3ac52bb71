// Serving the embedded Python modules (package_sources.h) to CPython's import system.
// SPDX-License-Identifier: MIT
#include "python/host/package_sources.h"

#include <pybind11/pybind11.h>

#include <stdexcept>

#include <string_view>

namespace py = pybind11;

namespace gradstep::python {

namespace {

constexpr std::string_view kImporter = "mindspore._gradstep_importer";

py::module_ importerModule() { return py::module_::import(kImporter.data()); }

} // namespace

void installPackage()
{
    py::dict sources;
    const PackageSource* importer = nullptr;
    for (const PackageSource& s : packageSources()) {
        if (s.module == kImporter)
            importer = &s;
        else
            sources[s.module] = py::make_tuple(s.path, s.package, s.source);
    }
    if (!importer)
        throw std::logic_error("the embedded package has no _gradstep_importer");
    // The importer cannot import itself: run its source into a module made by hand.
    py::module_ module = py::reinterpret_steal<py::module_>(PyModule_New(importer->module));
    if (!module)
        throw py::error_already_set();
    module.attr("__builtins__") = py::module_::import("builtins");
    const py::module_ builtins = py::module_::import("builtins");
    builtins.attr("exec")(builtins.attr("compile")(importer->source, std::string("<gradstep>/") + importer->path, "exec"),
                          module.attr("__dict__"));
    py::module_::import("sys").attr("modules")[importer->module] = module;
    module.attr("install")(sources);
}

void resetPackageForRun() { importerModule().attr("reset_for_run")(); }

} // namespace gradstep::python
