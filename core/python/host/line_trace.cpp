// SPDX-License-Identifier: MIT
#include "python/host/line_trace.h"

#include "python/host/source_locator.h"

#include <Python.h>

namespace gradstep::python {

namespace {

struct TraceState {
    LineListener* listener = nullptr;
    SourceLocator* locator = nullptr;
    bool displaced = false;
    int quiet = 0; ///< QuietLines alive
};

thread_local TraceState t_trace;

// Note [Line events only in the user's frames]
// CPython calls a C trace function for every frame's calls and lines. A frame whose f_trace_lines
// is false gets no line events, so at each call into code that is not the user's the trace turns
// them off for that frame: the package and the standard library then cost a call event each, and
// only the user's lines reach the listener. Frames already running when the trace is installed
// are turned off at their first line event instead.
int traceLines(PyObject* /*obj*/, PyFrameObject* frame, int what, PyObject* /*arg*/)
{
    if ((what != PyTrace_CALL && what != PyTrace_LINE) || !t_trace.listener)
        return 0;
    PyCodeObject* code = PyFrame_GetCode(frame);
    const SourceLocator::CodeInfo& info = t_trace.locator->codeInfo(code);
    Py_DECREF(reinterpret_cast<PyObject*>(code));
    if (!info.user) {
        if (PyObject_SetAttrString(reinterpret_cast<PyObject*>(frame), "f_trace_lines", Py_False) < 0)
            PyErr_Clear();
        return 0;
    }
    if (what == PyTrace_LINE && t_trace.quiet == 0)
        t_trace.listener->lineReached(info.file, PyFrame_GetLineNumber(frame), frame);
    return 0;
}

bool oursInstalled()
{
    return PyThreadState_Get()->c_tracefunc == &traceLines;
}

} // namespace

LineTraceScope::LineTraceScope(LineListener* listener, SourceLocator& locator)
{
    t_trace = TraceState{listener, &locator, false};
    syncLineTrace();
}

LineTraceScope::~LineTraceScope()
{
    if (oursInstalled())
        PyEval_SetTrace(nullptr, nullptr);
    t_trace = TraceState{};
}

QuietLines::QuietLines()
{
    ++t_trace.quiet;
}

QuietLines::~QuietLines()
{
    --t_trace.quiet;
}

void syncLineTrace()
{
    if (!t_trace.listener)
        return;
    const bool wanted = t_trace.listener->wantsLines();
    Py_tracefunc current = PyThreadState_Get()->c_tracefunc;
    if (wanted && !current) {
        PyEval_SetTrace(&traceLines, nullptr);
    } else if (wanted && current != &traceLines) {
        // The script traces itself (sys.settrace, a coverage tool): its trace stays; ours would
        // silently replace it.
        if (!t_trace.displaced) {
            t_trace.displaced = true;
            t_trace.listener->lineTraceDisplaced();
        }
    } else if (!wanted && current == &traceLines) {
        PyEval_SetTrace(nullptr, nullptr);
    }
}

} // namespace gradstep::python
