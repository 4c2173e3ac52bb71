// Source positions of Python frames (Python 3.11 code positions give columns). Call with the GIL.
// SPDX-License-Identifier: MIT
#pragma once

#include "python/host/run_vocabulary.h"

#include <pybind11/pybind11.h>

#include <string>

namespace gradstep::python {

/// UTF-8 bytes of a str. File names decode with surrogateescape (undecodable bytes come back as
/// they were), other text with backslashreplace; never throws. Not a str: str() of it.
std::string utf8(pybind11::handle text, const char* errors = "backslashreplace");

/// The line of `file` (without its newline) through linecache; empty when unreadable.
std::string sourceLineOf(const std::string& file, int line);

/// Span of the instruction at byte offset `lasti` of `code`, columns in characters (1-based);
/// `line` is the fallback when the code has no position table entry. Fills `sourceLine`.
SourceSpan spanOf(PyCodeObject* code, int lasti, int line, std::string& sourceLine);

/// co_filename and co_qualname of a code object.
std::string codeFile(PyCodeObject* code);
std::string codeName(PyCodeObject* code);

} // namespace gradstep::python
