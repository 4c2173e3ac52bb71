// os._exit and os.abort from a script end its run, not gradstep (Note [Process exits in a hosted
// script]). SPDX-License-Identifier: MIT
#pragma once

#include "python/host/run_vocabulary.h"
#include "python/host/user_files.h"

#include <pybind11/pybind11.h>

#include <optional>

namespace gradstep::python {

/// Puts os._exit / os.abort of the script's view in place (once per process) and makes the calling
/// thread the run's script thread (GIL held, on the script thread, at the start of each run).
void beginScriptExits();
/// The run is over: a later os._exit from a thread it left ends nothing but that thread.
void endScriptExits();
/// The exception type the wrappers raise (a BaseException).
PyObject* scriptExitedType();
/// What the run ended with when `error` is a ScriptExited: nothing for a status of 0 (as
/// sys.exit(0)), else a diagnostic naming the call at the script's place.
std::optional<Diagnostic> scriptExitDiagnostic(pybind11::error_already_set& error, const UserFiles& files);

} // namespace gradstep::python
