// Note [Process exits in a hosted script]
// Under python3, os._exit and os.abort end the process at once. Here the process is the debugger:
// the window with the user's session, a comparison's other side, the report still to print. In
// gradstep's own process they end the run instead: the call raises ScriptExited (a BaseException,
// so `except Exception` does not catch it; unlike under python3, `finally` blocks run as it
// unwinds) in the calling thread, and also in the script's thread when another thread called. The
// run then ends as sys.exit with the same status would (0: a normal end). In a process the script
// forked (multiprocessing's fork workers end with os._exit) both do what they always do.
// SPDX-License-Identifier: MIT
#include "python/host/script_exits.h"

#include "python/host/diagnose.h"

#include <pybind11/embed.h>

namespace py = pybind11;

namespace {

constexpr const char* kWrappers = R"PY(
import operator as _operator
import os as _os
import sys as _sys
import threading as _threading

_host_pid = _os.getpid()
_original_exit = _os._exit
_original_abort = _os.abort
_script_thread = None
_requested = None  # (the call as written, its status or None for abort, which thread and where)


def _end_run(call, status):
    global _requested
    if _script_thread is not None and _threading.get_ident() != _script_thread:
        # Another thread: it ends as a thread ending in SystemExit does (silently), and the
        # script's thread ends the run.
        caller = _sys._getframe(2)
        where = "in thread '%s' at %s:%d" % (_threading.current_thread().name,
                                             _os.path.basename(caller.f_code.co_filename), caller.f_lineno)
        _requested = (call, status, where)
        _raise_in(_script_thread)
        raise SystemExit(status if status is not None else 134)
    _requested = (call, status, "")
    raise ScriptExited(call)


def _exit(status):
    status = _operator.index(status)
    if _os.getpid() != _host_pid or _script_thread is None:
        _original_exit(status)
    _end_run("os._exit(%d)" % status, status)


def abort():
    if _os.getpid() != _host_pid or _script_thread is None:
        _original_abort()
    _end_run("os.abort()", None)


_exit.__doc__ = _original_exit.__doc__
abort.__doc__ = _original_abort.__doc__


def _install():
    _os._exit = _exit
    _os.abort = abort


def _begin():
    global _script_thread, _requested
    _script_thread = _threading.get_ident()
    _requested = None


def _end():
    global _script_thread
    _script_thread = None
)PY";

} // namespace

PYBIND11_EMBEDDED_MODULE(_gradstep_exits, m)
{
    PyObject* type = PyErr_NewExceptionWithDoc(
        "_gradstep_exits.ScriptExited",
        "Raised where a script called os._exit or os.abort: gradstep ends the run, not the process.",
        PyExc_BaseException, nullptr);
    if (!type)
        throw py::error_already_set();
    m.attr("ScriptExited") = py::reinterpret_steal<py::object>(type);
    m.def("_raise_in", [](unsigned long threadId) {
        PyThreadState_SetAsyncExc(threadId, gradstep::python::scriptExitedType());
    });
    py::exec(kWrappers, m.attr("__dict__"));
}

namespace gradstep::python {

void beginScriptExits()
{
    static const bool installed = [] {
        py::module_::import("_gradstep_exits").attr("_install")();
        return true;
    }();
    (void)installed;
    py::module_::import("_gradstep_exits").attr("_begin")();
}

void endScriptExits()
{
    const py::error_scope runError; // the run's error, put back when this returns
    try {
        py::module_::import("_gradstep_exits").attr("_end")();
    } catch (py::error_already_set&) {
    }
}

PyObject* scriptExitedType()
{
    static PyObject* type = py::module_::import("_gradstep_exits").attr("ScriptExited").ptr();
    return type;
}

std::optional<Diagnostic> scriptExitDiagnostic(py::error_already_set& error, const UserFiles& files)
{
    const py::object requested = py::module_::import("_gradstep_exits").attr("_requested");
    std::string call = "os._exit";
    std::optional<long long> status;
    if (!requested.is_none()) {
        call = py::str(requested[py::int_(0)]);
        if (!requested[py::int_(1)].is_none())
            status = requested[py::int_(1)].cast<long long>();
        const std::string where = py::str(requested[py::int_(2)]);
        if (!where.empty())
            call += " (" + where + ")";
    }
    if (status && *status == 0)
        return std::nullopt;
    Diagnostic d = diagnoseException(error.type(), error.value(), error.trace(), files);
    d.type = "SystemExit";
    d.notes.clear();
    d.message = status ? call + " ends the process under python3 (exit status " + std::to_string(*status)
                             + "); gradstep ended the run there"
                       : call + " aborts the process under python3 (SIGABRT); gradstep ended the run there";
    return d;
}

} // namespace gradstep::python
