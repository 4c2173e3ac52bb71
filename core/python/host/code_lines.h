// The lines of a script that hold code, from CPython's own line table of the compiled script: a
// breakpoint elsewhere (a blank line, a comment, inside a string) can never stop. No Python header
// here. SPDX-License-Identifier: MIT
#pragma once

#include <filesystem>
#include <vector>

namespace gradstep::python {

/// Sorted, without repeats; empty when the script cannot be read or compiled (a syntax error is
/// reported by the run itself). Takes the GIL; the host must be running.
std::vector<int> codeLines(const std::filesystem::path& script);

} // namespace gradstep::python
