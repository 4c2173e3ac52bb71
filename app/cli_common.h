// What every headless command shares: number arguments, the output streams, reports written
// atomically, and starting the embedded Python. SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace gradstep::python {
class ScriptRunner;
struct RunResult;
} // namespace gradstep::python

namespace gradstep::app {

/// A whole number 0..max written in decimal digits only (no sign, no spaces).
bool parseWholeNumber(std::string_view text, long long max, long long& value);
/// A positive number of seconds below 1e9 ("2", "0.5").
bool parseSeconds(const char* text, double& seconds);

/// Starts every line writeOut and writeErr print with `prefix` ("[rank 1] "); empty: none. With
/// a prefix, whole lines only are written; finishOutputLines ends a partial last line.
void setOutputPrefix(std::string prefix);
void finishOutputLines();
/// Writes and flushes at once, so the script's output and gradstep's interleave as they happen.
void writeOut(std::string_view text);
void writeErr(std::string_view text);

/// Writes `text` beside `path` and renames it over `path`, so a reader never sees half a file.
/// On failure prints "gradstep COMMAND: cannot write PATH: why" and returns false.
bool writeAtomically(const std::string& path, std::string_view text, const char* command);

/// Starts the embedded Python; on failure prints "gradstep COMMAND: why" and returns false.
bool startPython(const char* command);

/// Waits for the runner's script to end; the first Ctrl-C stops it (and sets *interrupted).
python::RunResult waitWatchingCtrlC(python::ScriptRunner& runner, bool* interrupted = nullptr);

/// Ends the process with `status` once a run was given up on (RunResult::abandoned): the output
/// is flushed and nothing else runs, as Python cannot be finalised under the blocked thread.
[[noreturn]] void endWithoutPython(int status);

} // namespace gradstep::app
