// SPDX-License-Identifier: MIT
#include "python/host/migration_capture.h"

#include <pybind11/functional.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace gradstep::python {

namespace {
py::object captureModule() { return py::module_::import("mindspore._migrate_capture"); }
} // namespace

void armMigrationCapture(const MigrationCapture& capture)
{
    auto match = capture.match;
    py::cpp_function matcher([match](const std::string& text) { return match ? match(text) : std::string("{\"pairs\": []}"); });
    captureModule().attr("arm")(capture.directory, capture.steps, capture.copyWeights, matcher);
}

void finishMigrationCapture() noexcept
{
    try {
        captureModule().attr("finish")();
    } catch (py::error_already_set& e) {
        e.discard_as_unraisable("gradstep: writing the migration capture");
    }
}

} // namespace gradstep::python
