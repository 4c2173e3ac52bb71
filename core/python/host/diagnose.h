// Turning a Python exception into a Diagnostic (uses the Python API; call with the GIL held).
// SPDX-License-Identifier: MIT
#pragma once

#include "python/host/run_vocabulary.h"
#include "python/host/user_files.h"

#include <pybind11/pybind11.h>

#include <string_view>

namespace gradstep::python {

/// The exception's diagnostic: location of the innermost frame in the user's files (a
/// SyntaxError's own location), source line, user-frame traceback, notes and chained causes.
Diagnostic diagnoseException(const pybind11::handle& type, const pybind11::handle& value,
                             const pybind11::handle& traceback, const UserFiles& files);

/// compile() failed without a location (MemoryError or RecursionError on absurdly nested
/// input): finds the first line whose prefix of the file still fails that way.
Diagnostic diagnoseCompileOverflow(const pybind11::handle& type, const pybind11::handle& value,
                                   std::string_view source, const UserFiles& files);

/// "ValueError", or "module.Name" for exception classes outside builtins and __main__ (as
/// Python's traceback prints them).
std::string exceptionTypeName(const pybind11::handle& type);

} // namespace gradstep::python
