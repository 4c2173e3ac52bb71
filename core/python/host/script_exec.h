// Running one script in the interpreter, on the calling thread with the GIL held: read, check,
// compile, set up __main__ / sys.argv / sys.path / stdout / stderr, execute, restore.
// SPDX-License-Identifier: MIT
#pragma once

#include "python/host/script_runner.h"
#include "python/host/user_files.h"

#include <pybind11/pybind11.h>

#include <functional>

namespace gradstep::python {

enum class ExecEnd {
    Completed, ///< ran to the end (or sys.exit(0))
    Failed,    ///< the diagnostic says why
    Stopped,   ///< the stop exception reached the top; the diagnostic says where
};

struct ExecResult {
    ExecEnd end = ExecEnd::Completed;
    /// Stopped runs: where; its message says what the script was doing when the stop came, if
    /// not running its own code (empty otherwise).
    std::optional<Diagnostic> diagnostic;
};

/// Called with true just before the user's code starts and with false as soon as it returns,
/// both with the GIL held, so a stop is raised only while user code runs.
using UserCodeHook = std::function<void(bool running)>;

ExecResult executeScript(const RunRequest& request, const UserFiles& files, const UserCodeHook& hook);

/// The exception class a stop raises in the script (derives from BaseException, so `except
/// Exception:` in the script does not swallow it). Borrowed; call with the GIL held.
PyObject* stopExceptionType();

} // namespace gradstep::python
