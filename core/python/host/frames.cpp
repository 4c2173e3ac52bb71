// SPDX-License-Identifier: MIT
#include "python/host/frames.h"

namespace gradstep::python {

namespace py = pybind11;

std::string utf8(py::handle text, const char* errors)
{
    if (!text)
        return {};
    py::object str = py::reinterpret_borrow<py::object>(text);
    if (!PyUnicode_Check(text.ptr())) {
        PyObject* converted = PyObject_Str(text.ptr());
        if (!converted) {
            PyErr_Clear();
            return "<str() failed>";
        }
        str = py::reinterpret_steal<py::object>(converted);
    }
    PyObject* bytes = PyUnicode_AsEncodedString(str.ptr(), "utf-8", errors);
    if (!bytes) {
        PyErr_Clear();
        return "<unprintable>";
    }
    std::string out(PyBytes_AS_STRING(bytes), static_cast<std::size_t>(PyBytes_GET_SIZE(bytes)));
    Py_DECREF(bytes);
    return out;
}

std::string sourceLineOf(const std::string& file, int line)
{
    if (file.empty() || line <= 0)
        return {};
    try {
        py::object text = py::module_::import("linecache").attr("getline")(file, line);
        std::string s = utf8(text);
        while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
            s.pop_back();
        return s;
    } catch (const py::error_already_set&) {
        return {};
    }
}

std::string codeFile(PyCodeObject* code)
{
    return PyUnicode_Check(code->co_filename) ? utf8(code->co_filename, "surrogateescape") : std::string();
}

std::string codeName(PyCodeObject* code)
{
    return PyUnicode_Check(code->co_qualname) ? utf8(code->co_qualname) : std::string("?");
}

SourceSpan spanOf(PyCodeObject* code, int lasti, int line, std::string& sourceLine)
{
    SourceSpan span;
    span.file = codeFile(code);
    int startLine = -1, startColumn = -1, endLine = -1, endColumn = -1;
    if (lasti >= 0)
        PyCode_Addr2Location(code, lasti, &startLine, &startColumn, &endLine, &endColumn);
    span.line = startLine > 0 ? startLine : line;
    sourceLine = sourceLineOf(span.file, span.line);
    // Code positions count UTF-8 bytes; diagnostics and the source view count characters.
    if (startLine > 0 && startColumn >= 0) {
        span.column = utf8Characters(sourceLine, static_cast<std::size_t>(startColumn)) + 1;
        span.endLine = endLine;
        if (endLine == startLine && endColumn >= 0)
            span.endColumn = utf8Characters(sourceLine, static_cast<std::size_t>(endColumn)) + 1;
        else if (endColumn >= 0)
            span.endColumn = endColumn + 1;
    } else if (!sourceLine.empty()) {
        const auto first = sourceLine.find_first_not_of(" \t");
        span.column = first == std::string::npos ? 1 : utf8Characters(sourceLine, first) + 1;
    }
    return span;
}

} // namespace gradstep::python
