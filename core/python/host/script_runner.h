// Runs a user's Python script on a worker thread: the script's directory on sys.path (helper
// modules beside it import), __name__ == "__main__", sys.argv, stdout/stderr to a callback, stop
// and timeout that interrupt even `while True: pass`. No Python header here.
// SPDX-License-Identifier: MIT
#pragma once

#include "python/host/migration_capture.h"
#include "python/host/run_vocabulary.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace gradstep {
class ExecutionObserver;
}

namespace gradstep::python {

class LineListener;


struct RunRequest {
    std::filesystem::path script;        ///< as the user gave it; diagnostics print it this way
    std::vector<std::string> args;       ///< sys.argv[1:]
    std::chrono::milliseconds timeout{0};///< 0: no limit
    OutputCallback output;               ///< null: the text is dropped
    ExecutionObserver* observer = nullptr; ///< attached to the worker thread for the run
    LineListener* lines = nullptr;         ///< told the user's lines while it wants them
    /// The MindSpore API the script sees: "2.x" or "1.10" (python/bind/api_profile.h).
    std::string apiProfile = "2.x";
    RunOverrides overrides;              ///< what-if switches (run_overrides.h)
    /// `gradstep migrate`: record the run for the comparison with PyTorch (migration_capture.h)
    std::optional<MigrationCapture> migration;
};


enum class RunStatus { Ok, Error, Stopped, TimedOut };
const char* runStatusName(RunStatus status);

struct RunResult {
    RunStatus status = RunStatus::Ok;
    /// Error: the diagnostic. Stopped / TimedOut: where the script was interrupted (no type).
    std::optional<Diagnostic> diagnostic;
    double seconds = 0.0; ///< wall time of the run
    /// TimedOut or Stopped: the script did not respond to the stop (blocked in a call Python
    /// cannot interrupt: time.sleep, a read, a lock) and its thread was left behind. Python can
    /// then not be finalised (see Note [Giving up on a blocked script]).
    bool abandoned = false;
};

/// One run at a time per runner; a runner may be reused after wait(). The Host must be running.
/// Destroying a running runner stops it and waits for its worker.
class ScriptRunner {
public:
    ScriptRunner();
    ~ScriptRunner();
    ScriptRunner(const ScriptRunner&) = delete;
    ScriptRunner& operator=(const ScriptRunner&) = delete;

    /// Starts the worker and returns at once. Throws gradstep::RuntimeError when a run is active
    /// or the Host is not running, gradstep::ValueError for an unknown API profile.
    void start(RunRequest request);
    /// Asks the running script to stop (raises an exception in it at the next bytecode; a long C
    /// call finishes first). Returns at once; safe from any thread and when nothing runs. A script
    /// blocked in a call a stop cannot interrupt is given up on a few seconds later (the run ends
    /// as Stopped, abandoned).
    void stop();
    /// stop() for the worker thread itself, from inside an op or a step event of the script
    /// (an ExecutionObserver callback): marks the run stopped and throws, so the script ends right
    /// there instead of at a later bytecode. Let the exception propagate. From any other thread it
    /// is stop() and returns.
    void stopNow();
    bool finished() const;
    /// Waits for the run to end (holding no GIL) and joins the worker; the result of the last run.
    RunResult wait();
    /// Like wait(), but gives up after `limit` (then nullopt; the run goes on).
    std::optional<RunResult> waitFor(std::chrono::milliseconds limit);
    /// start() + wait().
    RunResult run(RunRequest request);

    /// The running script's frames in the user's files, outermost first, with their variables.
    /// Takes the GIL, so call it while the worker is paused inside an op under a GilRelease (it
    /// would otherwise wait for the script's next switch); empty when no script runs.
    std::vector<StackFrame> userStack() const;

private:
    enum class StopReason { None, Stop, Timeout };
    struct Shared;

    static void workerMain(const std::shared_ptr<Shared>& shared, RunRequest request);
    void supervisorMain(std::chrono::milliseconds timeout);
    void giveUp(StopReason reason, std::chrono::milliseconds timeout);
    void join();

    std::shared_ptr<Shared> m_shared;
    std::thread m_worker;
    std::thread m_supervisor;
};

} // namespace gradstep::python
