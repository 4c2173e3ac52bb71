// The worker and supervisor threads of a run. The worker holds the GIL while Python runs; the
// supervisor waits (without the GIL) for a stop or the deadline and then raises the stop
// exception in the worker with PyThreadState_SetAsyncExc, again every 100 ms while the script
// keeps running (it may catch the exception with a bare `except:`).
// SPDX-License-Identifier: MIT
#include "python/host/script_runner.h"

#include "autodiff/context.h"
#include "python/bind/api_profile.h"
#include "python/host/frames.h"
#include "python/host/host.h"
#include "python/host/host_internal.h"
#include "python/host/line_trace.h"
#include "python/host/script_exec.h"
#include "python/host/script_inspect.h"
#include "python/host/script_signals.h"
#include "python/host/source_locator.h"
#include "python/host/stack_guard.h"
#include "tensor/errors.h"

#include <pybind11/pybind11.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>

namespace py = pybind11;

namespace gradstep::python {

namespace {
constexpr std::chrono::milliseconds kRaiseAgainEvery{100};
/// How long a timed-out script may ignore the stop before the run is given up.
constexpr std::chrono::milliseconds kGiveUpAfter{3000};
/// How often the supervisor looks for signals the script handles (script_signals.cpp).
constexpr std::chrono::milliseconds kSignalPoll{50};

// Note [Dropping a pending stop]
// PyThreadState_SetAsyncExc(id, NULL) clears a pending exception but leaves the interpreter's
// "async exception pending" flag set (CPython clears it only when it raises one). With the flag
// stuck, every function entry takes the slow path, and once the script installs a trace or profile
// function (sys.settrace, cProfile) CPython 3.11 re-enters that path at the same instruction
// forever. So a pending stop is dropped by letting it fire, in an empty Python function whose
// exception is discarded; the error the script ended with is kept aside meanwhile.
void dropPendingStop()
{
    const py::error_scope scriptError; // put back when this returns
    static PyObject* drain = py::object(py::module_::import("_gradstep_host").attr("_drain")).release().ptr();
    if (PyObject* result = PyObject_CallNoArgs(drain))
        Py_DECREF(result);
    else
        PyErr_Clear();
}
} // namespace

struct ScriptRunner::Shared {
    std::mutex mutex;
    std::condition_variable changed;
    bool active = false;   ///< started and not yet joined
    bool finished = true;
    StopReason reason = StopReason::None;
    std::chrono::milliseconds timeout{0};
    UserFiles files;
    RunResult result;
    /// Written by the worker with the GIL held, read by the supervisor with the GIL held.
    unsigned long threadId = 0;
    std::atomic<bool> userCodeRunning{false};
    /// The worker was left blocked after a stop or timeout; its late end must change nothing.
    bool abandoned = false;
    /// The worker's execution context (its observer), and whether the run's observer and output
    /// were cut off from a worker given up on. Both touched only with the GIL held.
    ExecutionContext* workerContext = nullptr;
    std::atomic<bool> detached{false};
};

const char* runStatusName(RunStatus status)
{
    switch (status) {
    case RunStatus::Ok: return "ok";
    case RunStatus::Error: return "error";
    case RunStatus::Stopped: return "stopped";
    case RunStatus::TimedOut: return "timed out";
    }
    return "error";
}

ScriptRunner::ScriptRunner() : m_shared(std::make_shared<Shared>()) {}

ScriptRunner::~ScriptRunner()
{
    GilRelease release; // the worker needs the GIL to finish
    stop();
    join();
}

void ScriptRunner::start(RunRequest request)
{
    if (!Host::running())
        throw RuntimeError("the Python host is not running: call Host::start() first");
    if (!isApiProfile(request.apiProfile))
        throw ValueError("unknown API profile '" + request.apiProfile + "', expected '2.x' or '1.10'");
    // As python3 DIR: a directory runs its __main__.py (one without it is reported by the run).
    std::error_code ec;
    if (std::filesystem::is_directory(request.script, ec)
        && std::filesystem::is_regular_file(request.script / "__main__.py", ec))
        request.script /= "__main__.py";
    {
        std::lock_guard lock(m_shared->mutex);
        if (m_shared->active && !m_shared->finished)
            throw RuntimeError("a script is already running in this runner");
    }
    join();
    {
        std::lock_guard lock(m_shared->mutex);
        m_shared->active = true;
        m_shared->finished = false;
        m_shared->reason = StopReason::None;
        m_shared->timeout = request.timeout;
        m_shared->files = UserFiles(request.script);
        m_shared->result = {};
    }
    registerRunner(this);
    const auto timeout = request.timeout;
    // The worker holds the shared state itself: a worker given up on may outlive this runner.
    m_worker = startScriptThread([shared = m_shared, request = std::move(request)]() mutable {
        workerMain(shared, std::move(request));
    });
    m_supervisor = std::thread(&ScriptRunner::supervisorMain, this, timeout);
}

void ScriptRunner::stop()
{
    {
        std::lock_guard lock(m_shared->mutex);
        if (m_shared->finished || m_shared->reason != StopReason::None)
            return;
        m_shared->reason = StopReason::Stop;
    }
    m_shared->changed.notify_all();
}

void ScriptRunner::stopNow()
{
    const bool onWorker = std::this_thread::get_id() == m_worker.get_id() && Py_IsInitialized() && PyGILState_Check();
    if (!onWorker) {
        stop();
        return;
    }
    {
        std::lock_guard lock(m_shared->mutex);
        if (m_shared->reason == StopReason::None)
            m_shared->reason = StopReason::Stop;
    }
    m_shared->changed.notify_all();
    // pybind11 restores the Python error when this passes through the bound function that called
    // into the core, so the script sees the same exception an asynchronous stop raises.
    PyErr_SetNone(stopExceptionType());
    throw py::error_already_set();
}

bool ScriptRunner::finished() const
{
    std::lock_guard lock(m_shared->mutex);
    return m_shared->finished;
}

namespace {
void refuseWaitingWithGil()
{
    if (Py_IsInitialized() && PyGILState_Check())
        throw RuntimeError("ScriptRunner::wait() was called by a thread holding the GIL: the script "
                           "could never finish (release it first)");
}
} // namespace

RunResult ScriptRunner::wait()
{
    refuseWaitingWithGil();
    {
        std::unique_lock lock(m_shared->mutex);
        m_shared->changed.wait(lock, [&] { return m_shared->finished; });
    }
    join();
    std::lock_guard lock(m_shared->mutex);
    return m_shared->result;
}

std::optional<RunResult> ScriptRunner::waitFor(std::chrono::milliseconds limit)
{
    refuseWaitingWithGil();
    {
        std::unique_lock lock(m_shared->mutex);
        if (!m_shared->changed.wait_for(lock, limit, [&] { return m_shared->finished; }))
            return std::nullopt;
    }
    return wait();
}

RunResult ScriptRunner::run(RunRequest request)
{
    start(std::move(request));
    return wait();
}

void ScriptRunner::join()
{
    bool abandoned = false;
    {
        std::lock_guard lock(m_shared->mutex);
        abandoned = m_shared->abandoned;
    }
    if (m_worker.joinable()) {
        if (abandoned)
            m_worker.detach(); // blocked for good, maybe: the process ends without it
        else
            m_worker.join();
    }
    if (m_supervisor.joinable())
        m_supervisor.join();
    std::lock_guard lock(m_shared->mutex);
    if (m_shared->active) {
        m_shared->active = false;
        unregisterRunner(this);
    }
}

namespace {

RunResult toRunResult(ExecResult exec, bool stopRequested, bool timedOut, std::chrono::milliseconds timeout)
{
    RunResult result;
    result.diagnostic = std::move(exec.diagnostic);
    if (exec.end == ExecEnd::Completed)
        return result;
    if (exec.end == ExecEnd::Failed && !stopRequested) {
        result.status = RunStatus::Error;
        return result;
    }
    result.status = timedOut ? RunStatus::TimedOut : RunStatus::Stopped;
    if (result.diagnostic) {
        char text[64];
        std::snprintf(text, sizeof text, "timed out after %g s", static_cast<double>(timeout.count()) / 1000.0);
        result.diagnostic->type.clear();
        result.diagnostic->notes.clear();
        const std::string doing = result.diagnostic->message;
        result.diagnostic->message = timedOut ? text : "stopped";
        if (!doing.empty())
            result.diagnostic->message += ", " + doing;
    }
    return result;
}

} // namespace

void ScriptRunner::workerMain(const std::shared_ptr<Shared>& shared, RunRequest request)
{
    Shared& s = *shared;
    const auto started = std::chrono::steady_clock::now();
    const UserFiles files(request.script);
    ExecResult exec;
    try {
        py::gil_scoped_acquire gil;
        s.threadId = PyThread_get_thread_ident();
        s.workerContext = &executionContext();
        // A worker given up on may wake up after the run's owner is gone: from then on what it
        // prints goes nowhere (giveUp sets `detached` holding the GIL, as this runs).
        if (request.output)
            request.output = [&s, output = std::move(request.output)](OutputStream stream, std::string_view text) {
                if (!s.detached)
                    output(stream, text);
            };
        ObserverGuard observer(request.observer);
        auto locator = std::make_unique<SourceLocator>(files);
        executionContext().locationProvider = [raw = locator.get()] { return raw->current(); };
        const UserCodeHook hook = [&](bool running) {
            s.userCodeRunning = running;
            bool stopNow = false;
            {
                std::lock_guard lock(s.mutex);
                stopNow = s.reason != StopReason::None;
            }
            // Entering: a stop requested during set-up fires at the first bytecode. Leaving:
            // drop a stop that arrived too late, so it cannot fire in gradstep's own clean-up.
            if (running && stopNow)
                PyThreadState_SetAsyncExc(s.threadId, stopExceptionType());
            else if (!running && stopNow)
                dropPendingStop();
        };
        {
            LineTraceScope lines(request.lines, *locator);
            exec = executeScript(request, files, hook);
        }
        executionContext().locationProvider = nullptr;
        locator.reset();
    } catch (const std::exception& e) {
        Diagnostic d;
        d.span.file = files.script();
        d.span.displayFile = files.display(files.script());
        d.type = "InternalError";
        d.message = e.what();
        exec = {ExecEnd::Failed, std::move(d)};
    }
    std::unique_lock lock(s.mutex);
    if (s.abandoned)
        return;
    const bool stopRequested = s.reason != StopReason::None;
    s.result = toRunResult(std::move(exec), stopRequested, s.reason == StopReason::Timeout, s.timeout);
    s.result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    s.finished = true;
    lock.unlock();
    s.changed.notify_all();
}

std::vector<StackFrame> ScriptRunner::userStack() const
{
    UserFiles files;
    {
        std::lock_guard lock(m_shared->mutex);
        if (m_shared->finished)
            return {};
        files = m_shared->files;
    }
    py::gil_scoped_acquire gil;
    if (!m_shared->userCodeRunning)
        return {};
    return stackOfThread(m_shared->threadId, files);
}

// Note [Giving up on a blocked script]
// The stop is an exception raised in the worker, and CPython raises it only between bytecodes: a
// script blocked in time.sleep(600), a read of a pipe nobody writes or a lock never released runs
// no bytecode, and a thread other than the main one cannot be woken from those calls. A timeout
// or a stop (the window's Stop, Close, or opening another script) must still end the run, so
// after kGiveUpAfter of raising in vain the supervisor reports the run as timed out or stopped
// where the script is blocked and marks it abandoned: the worker is detached and, holding the
// GIL (so the worker cannot be inside either), cut off from the run's observer and output, whose
// owners may be gone when it wakes up. When it wakes it meets the pending stop at once and ends
// quietly. The command-line front ends print their report and end the process without
// finalising Python (finalising would wait for, or tear down under, a thread still inside the
// interpreter); Host::shutdown() leaves Python as it is once a run was given up on.
void ScriptRunner::supervisorMain(std::chrono::milliseconds timeout)
{
    Shared& s = *m_shared;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::optional<std::chrono::steady_clock::time_point> stoppingSince;
    std::unique_lock lock(s.mutex);
    while (!s.finished) {
        if (s.reason == StopReason::None && timeout.count() > 0 && std::chrono::steady_clock::now() >= deadline)
            s.reason = StopReason::Timeout;
        if (s.reason == StopReason::None) {
            // Wakes at least every kSignalPoll to run the script's signal handlers.
            const auto wake = std::chrono::steady_clock::now() + kSignalPoll;
            s.changed.wait_until(lock, timeout.count() > 0 ? std::min(deadline, wake) : wake);
            if (scriptSignalsPending() && !s.finished) {
                lock.unlock();
                {
                    py::gil_scoped_acquire gil;
                    if (s.userCodeRunning)
                        deliverScriptSignals(s.threadId);
                }
                lock.lock();
            }
            continue;
        }
        if (!stoppingSince) {
            stoppingSince = std::chrono::steady_clock::now();
        } else if (std::chrono::steady_clock::now() - *stoppingSince >= kGiveUpAfter) {
            const StopReason reason = s.reason;
            lock.unlock();
            giveUp(reason, timeout);
            return;
        }
        lock.unlock();
        {
            py::gil_scoped_acquire gil;
            if (s.userCodeRunning)
                PyThreadState_SetAsyncExc(s.threadId, stopExceptionType());
        }
        lock.lock();
        s.changed.wait_for(lock, kRaiseAgainEvery, [&] { return s.finished; });
    }
}

void ScriptRunner::giveUp(StopReason reason, std::chrono::milliseconds timeout)
{
    Shared& s = *m_shared;
    RunResult result;
    result.status = reason == StopReason::Timeout ? RunStatus::TimedOut : RunStatus::Stopped;
    result.abandoned = true;
    Diagnostic d;
    {
        // The blocked call released the GIL (or the script would not be blocked but running).
        py::gil_scoped_acquire gil;
        {
            std::lock_guard lock(s.mutex);
            if (s.finished)
                return; // it ended after all
        }
        s.detached = true;
        if (s.workerContext)
            s.workerContext->observer = nullptr;
        const std::vector<StackFrame> stack = s.userCodeRunning ? stackOfThread(s.threadId, s.files)
                                                                : std::vector<StackFrame>{};
        d.span.file = s.files.script();
        d.span.displayFile = s.files.display(s.files.script());
        if (!stack.empty()) {
            d.span = stack.back().frame.span;
            d.sourceLine = sourceLineOf(d.span.file, d.span.line);
        }
        // No Python error may stay set on this thread.
        PyErr_Clear();
    }
    char text[240];
    const double giveUpSeconds = static_cast<double>(kGiveUpAfter.count()) / 1000.0;
    if (reason == StopReason::Timeout)
        std::snprintf(text, sizeof text,
                      "timed out after %g s, blocked in a call that a stop cannot interrupt (a sleep, a read, "
                      "a lock); gradstep gave up on the script %g s later",
                      static_cast<double>(timeout.count()) / 1000.0, giveUpSeconds);
    else
        std::snprintf(text, sizeof text,
                      "stopped, blocked in a call that a stop cannot interrupt (a sleep, a read, a lock); "
                      "gradstep gave up on the script %g s after the stop",
                      giveUpSeconds);
    d.message = text;
    result.diagnostic = std::move(d);
    noteAbandonedRun();
    {
        std::lock_guard lock(s.mutex);
        if (s.finished)
            return; // it ended after all
        s.result = std::move(result);
        s.abandoned = true;
        s.finished = true;
    }
    s.changed.notify_all();
}

} // namespace gradstep::python
