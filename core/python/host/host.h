// The embedded CPython interpreter: one per process, started before any script runs and finalised
// after every script runner has stopped. No Python header here, so Qt code may include it.
// SPDX-License-Identifier: MIT
#pragma once

namespace gradstep::python {

struct HostOptions {
    /// Install gradstep's own SIGINT handler before Python starts. Python would otherwise take
    /// SIGINT as soon as anything imports `signal` (numpy does), even with its handlers off.
    /// The handler only counts: the first Ctrl-C sets interruptCount() (the caller stops its
    /// runner), a second one ends the process with status 130.
    bool installSigintHandler = true;
};

/// Process-wide lifetime of the interpreter. Start and shut down from the same thread (the main
/// thread in the app). Between the two, no thread holds the GIL unless it is running Python:
/// script runners take it on their worker thread and nobody waits for Python while holding it.
class Host {
public:
    /// Starts Debian's CPython 3.11 (sys.executable is the interpreter CMake configured against,
    /// environment variables such as PYTHONPATH are ignored, hash seed 0 for reproducible runs)
    /// and imports our embedded `mindspore`, so it shadows any installed one. Later calls do
    /// nothing. Throws gradstep::RuntimeError when Python cannot start or was shut down already
    /// (CPython with numpy cannot be started twice in one process).
    static void start(const HostOptions& options = {});
    static bool running();
    /// Stops every live ScriptRunner, waits for its worker, takes the GIL and finalises Python.
    /// Does nothing when Python is not running. Once a run was given up on (a script blocked in
    /// a call a stop cannot interrupt) Python is left as it is: end the process with _Exit then
    /// (static destructors may still touch Python objects).
    static void shutdown();
    /// A runner gave up on a blocked script since the start (see shutdown()).
    static bool abandonedRuns();
    /// SIGINTs seen by gradstep's handler since the process started.
    static int interruptCount();
};

/// Releases the GIL for its lifetime when the calling thread holds it, and does nothing otherwise.
/// An observer that pauses the script inside an op waits under one, so other threads (the GUI
/// reading the paused frames' variables, a stop) can run Python meanwhile.
class GilRelease {
public:
    GilRelease();
    ~GilRelease();
    GilRelease(const GilRelease&) = delete;
    GilRelease& operator=(const GilRelease&) = delete;

private:
    void* m_state = nullptr; ///< the PyThreadState saved while released
};

} // namespace gradstep::python
