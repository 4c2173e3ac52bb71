// Note [Signal handlers on the script thread]
// CPython lets only the main thread install signal handlers and runs them only there, between
// bytecodes. gradstep runs scripts on a worker thread, so a training script that installs a
// handler (checkpoint on SIGTERM, a SIGALRM watchdog) would fail at signal.signal. For a call from
// any thread but the main one, signal.signal records the handler and installs a C handler that only
// marks the signal as arrived; the runner's supervisor, which wakes every 50 ms, then takes the GIL
// and calls the Python handler with the script thread's current frame, so it runs between two of
// that thread's bytecodes as it would under python3. An exception the handler raises is raised in
// the script thread (by type: CPython's asynchronous exceptions carry no instance). SIG_DFL and
// SIG_IGN are set as asked. Every disposition a run changed is put back when it ends, so nothing
// leaks into the next run (gradstep's own Ctrl+C handler included).
// SPDX-License-Identifier: MIT
#include "python/host/script_signals.h"

#include <pybind11/embed.h>

#include <array>
#include <atomic>
#include <csignal>
#include <optional>

namespace py = pybind11;

namespace gradstep::python {

namespace {

constexpr int kSignals = 65; // NSIG on Linux
std::array<std::atomic<bool>, kSignals> g_arrived{};
std::atomic<bool> g_anyArrived{false};
/// The disposition before the run's first change, per signal (touched with the GIL held).
std::array<std::optional<struct sigaction>, kSignals> g_saved{};

extern "C" void onScriptSignal(int signum)
{
    if (signum > 0 && signum < kSignals) {
        g_arrived[static_cast<std::size_t>(signum)].store(true);
        g_anyArrived.store(true);
    }
}

void setDisposition(int signum, void (*handler)(int))
{
    if (signum <= 0 || signum >= kSignals)
        throw py::value_error("signal number out of range");
    struct sigaction wanted {};
    struct sigaction previous {};
    wanted.sa_handler = handler;
    sigemptyset(&wanted.sa_mask);
    wanted.sa_flags = SA_ONSTACK; // as CPython: no SA_RESTART, a blocking call sees EINTR
    if (sigaction(signum, &wanted, &previous) != 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        throw py::error_already_set();
    }
    auto& saved = g_saved[static_cast<std::size_t>(signum)];
    if (!saved)
        saved = previous;
}

constexpr const char* kWrappers = R"(
import signal as _signal
import sys as _sys
import threading as _threading

_original_signal = _signal.signal
_original_getsignal = _signal.getsignal
_handlers = {}


def _signal_wrapper(signalnum, handler):
    if _threading.current_thread() is _threading.main_thread():
        return _original_signal(signalnum, handler)
    signalnum = int(signalnum)
    if not 1 <= signalnum < _signal.NSIG:
        raise ValueError("signal number out of range")
    if signalnum in (_signal.SIGKILL, _signal.SIGSTOP):
        raise OSError(22, "Invalid argument")
    if handler is not _signal.SIG_DFL and handler is not _signal.SIG_IGN and not callable(handler):
        if handler in (_signal.SIG_DFL, _signal.SIG_IGN, 0, 1):
            handler = _signal.Handlers(int(handler))
        else:
            raise TypeError("signal handler must be signal.SIG_IGN, signal.SIG_DFL, or a callable object")
    previous = _getsignal_wrapper(signalnum)
    if handler == _signal.SIG_DFL:
        _set_default(signalnum)
    elif handler == _signal.SIG_IGN:
        _set_ignore(signalnum)
    else:
        _catch(signalnum)
    _handlers[signalnum] = handler
    return previous


def _getsignal_wrapper(signalnum):
    if signalnum in _handlers:
        return _handlers[signalnum]
    return _original_getsignal(signalnum)


_signal_wrapper.__doc__ = _original_signal.__doc__
_getsignal_wrapper.__doc__ = _original_getsignal.__doc__


def _install():
    _signal.signal = _signal_wrapper
    _signal.getsignal = _getsignal_wrapper


def _deliver(signals, thread_id):
    # The script thread's frame, as CPython passes the main thread's.
    frame = _sys._current_frames().get(thread_id)
    for signalnum in signals:
        handler = _handlers.get(signalnum)
        if callable(handler):
            try:
                handler(signalnum, frame)
            except BaseException as error:
                return type(error)
    return None


def _reset():
    _handlers.clear()
)";

} // namespace

// faulthandler.enable() (and any C extension doing the same) gives the calling thread, the script's,
// an alternate signal stack of its own; the run's end puts the thread's previous one back, so the
// thread keeps nothing the interpreter may free (faulthandler frees its stack at finalisation) and
// the next run starts as this one did. AddressSanitizer, which unmaps the stack it set at a
// thread's exit, failed on the replaced one.
thread_local std::optional<stack_t> t_altStack;

void installScriptSignals()
{
    py::module_::import("_gradstep_signals").attr("_install")();
    stack_t current{};
    if (sigaltstack(nullptr, &current) == 0)
        t_altStack = current;
}

bool scriptSignalsPending() { return g_anyArrived.load(); }

void deliverScriptSignals(unsigned long threadId)
{
    if (!g_anyArrived.exchange(false))
        return;
    py::list arrived;
    for (int signum = 1; signum < kSignals; ++signum)
        if (g_arrived[static_cast<std::size_t>(signum)].exchange(false))
            arrived.append(signum);
    try {
        py::object raised = py::module_::import("_gradstep_signals").attr("_deliver")(arrived, threadId);
        if (!raised.is_none())
            PyThreadState_SetAsyncExc(threadId, raised.ptr());
    } catch (py::error_already_set&) {
        PyErr_Clear(); // the delivery itself failed: nothing of it may reach the supervisor
    }
}

void resetScriptSignals()
{
    if (t_altStack) {
        stack_t current{};
        if (sigaltstack(nullptr, &current) == 0 && current.ss_sp != t_altStack->ss_sp) {
            stack_t previous = *t_altStack;
            if (previous.ss_flags & SS_ONSTACK)
                previous.ss_flags &= ~SS_ONSTACK;
            sigaltstack(&previous, nullptr);
        }
        t_altStack.reset();
    }
    for (int signum = 1; signum < kSignals; ++signum) {
        auto& saved = g_saved[static_cast<std::size_t>(signum)];
        if (saved) {
            sigaction(signum, &*saved, nullptr);
            saved.reset();
        }
        g_arrived[static_cast<std::size_t>(signum)].store(false);
    }
    g_anyArrived.store(false);
    py::module_::import("_gradstep_signals").attr("_reset")();
}

} // namespace gradstep::python

PYBIND11_EMBEDDED_MODULE(_gradstep_signals, m)
{
    using namespace gradstep::python;
    m.def("_catch", [](int signum) { setDisposition(signum, &onScriptSignal); });
    m.def("_set_default", [](int signum) { setDisposition(signum, SIG_DFL); });
    m.def("_set_ignore", [](int signum) { setDisposition(signum, SIG_IGN); });
    py::exec(kWrappers, m.attr("__dict__"));
}
