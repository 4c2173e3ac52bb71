// The checkpoint a run loads for the user (RunOverrides::checkpoint; File > Open Checkpoint,
// --checkpoint FILE): read when the run starts and loaded into the first top-level Cell call
// that holds one of its Parameters (mindspore/train/_debugger_checkpoint.py). The armed flag is
// the run's (run_context.h): armed by the run's setup, gone with the run.
// SPDX-License-Identifier: MIT
#pragma once

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

namespace gradstep::python {

/// The checkpoint could not be read: the run fails before the script starts, at the file.
class RunCheckpointError : public std::runtime_error {
public:
    RunCheckpointError(std::string path, const std::string& reason)
        : std::runtime_error(reason), m_path(std::move(path)) {}
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

/// Reads the file and arms it for this run; throws RunCheckpointError for a bad file.
void armRunCheckpoint(const std::string& path);
/// Called by Cell.__call__: a top-level call of a Cell holding a Parameter of the armed file
/// loads it (once). Cheap when nothing is armed.
void loadRunCheckpointInto(const pybind11::object& cell);
/// Says when the armed file was never loaded, and disarms it.
void finishRunCheckpoint();

} // namespace gradstep::python
