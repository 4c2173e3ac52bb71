// SPDX-License-Identifier: MIT
#include "python/host/run_checkpoint.h"

#include "python/host/run_context.h"

#include "autodiff/context.h"

namespace py = pybind11;

namespace gradstep::python {

namespace {

py::object checkpointModule() { return py::module_::import("mindspore.train._debugger_checkpoint"); }

} // namespace

void armRunCheckpoint(const std::string& path)
{
    RunContext* run = activeRun();
    if (!run)
        return;
    run->checkpointArmed = false;
    try {
        checkpointModule().attr("arm")(path);
    } catch (py::error_already_set& e) {
        throw RunCheckpointError(path, py::str(e.value()));
    }
    run->checkpointArmed = true;
}

void loadRunCheckpointInto(const py::object& cell)
{
    // Read on every Cell call: a flag, so the common case (no checkpoint) costs one load.
    if (!currentRun().checkpointArmed || executionContext().scope != nullptr)
        return;
    if (checkpointModule().attr("load_into")(cell).cast<bool>())
        activeRun()->checkpointArmed = false;
}

void finishRunCheckpoint()
{
    RunContext* run = activeRun();
    if (!run || !run->checkpointArmed)
        return;
    run->checkpointArmed = false;
    checkpointModule().attr("finish")();
}

} // namespace gradstep::python
