// A script error as a compiler reports one: FILE:LINE:COL: error: TYPE: MESSAGE for the innermost
// frame in the user's files, the source line with a caret under the column, then the user-frame
// traceback. Part of the run vocabulary (core/run): no Python; core/python builds one from a Python
// exception (python/host/diagnose.h).
// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gradstep::run {

/// A place in a source file. Lines and columns are 1-based, columns count characters;
/// 0 means unknown.
struct SourceSpan {
    std::string file;        ///< absolute path (or a pseudo name such as "<string>")
    std::string displayFile; ///< as printed: relative to the script's directory as the user gave it
    int line = 0;
    int column = 0;
    int endLine = 0;
    int endColumn = 0;       ///< exclusive
};

struct TraceFrame {
    SourceSpan span;
    std::string function; ///< "<module>", "train_step", "LeNet5.construct"
};

struct Diagnostic {
    SourceSpan span;
    std::string type;       ///< "NameError", "ValueError"; empty for stop / timeout reports
    std::string message;
    std::string sourceLine; ///< the line at span.line without its newline; empty when unknown
    std::vector<TraceFrame> traceback; ///< user frames, outermost first
    std::vector<std::string> notes;    ///< exception notes, chained causes

    /// "FILE:LINE:COL: error: TYPE: MESSAGE", then the source line, the caret and the traceback.
    std::string format() const;
    /// The first line of format().
    std::string headline() const;
};

/// Python refuses source with NUL bytes without saying where; this finds the first one.
/// Returns false when `source` has none.
bool findNulByte(std::string_view source, int& line, int& column);

/// Number of characters in the first `bytes` bytes of a UTF-8 line (for byte-offset columns).
int utf8Characters(std::string_view line, std::size_t bytes);

} // namespace gradstep::run
