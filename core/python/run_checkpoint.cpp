// SPDX-License-Identifier: MIT
#include "python/run_checkpoint.h"

#include "autodiff/context.h"

namespace py = pybind11;

namespace gradstep::python {

namespace {

// Read on every Cell call: a plain flag, so the common case (no checkpoint) costs one load.
bool g_armed = false;

py::object checkpointModule() { return py::module_::import("mindspore.train._debugger_checkpoint"); }

} // namespace

void armRunCheckpoint(const std::string& path)
{
    g_armed = false;
    try {
        checkpointModule().attr("arm")(path);
    } catch (py::error_already_set& e) {
        throw RunCheckpointError(path, py::str(e.value()));
    }
    g_armed = true;
}

void loadRunCheckpointInto(const py::object& cell)
{
    if (!g_armed || executionContext().scope != nullptr)
        return;
    if (checkpointModule().attr("load_into")(cell).cast<bool>())
        g_armed = false;
}

void finishRunCheckpoint()
{
    if (!g_armed)
        return;
    g_armed = false;
    checkpointModule().attr("finish")();
}

} // namespace gradstep::python
