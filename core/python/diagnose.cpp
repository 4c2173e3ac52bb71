// From a Python exception to a Diagnostic. Frames come straight from the traceback objects and
// their code positions (what traceback.py prints as carets); SyntaxError carries its own location.
// SPDX-License-Identifier: MIT
#include "python/diagnose.h"

#include "python/frames.h"

#include <algorithm>

namespace gradstep::python {

namespace py = pybind11;

namespace {

constexpr int kMaxChainedNotes = 3;

struct Located {
    TraceFrame frame;
    std::string sourceLine;
};

/// Every frame of the traceback, outermost first.
std::vector<Located> tracebackFrames(py::handle traceback, const UserFiles& files)
{
    std::vector<Located> frames;
    for (auto* tb = reinterpret_cast<PyTracebackObject*>(traceback.ptr());
         tb && reinterpret_cast<PyObject*>(tb) != Py_None; tb = tb->tb_next) {
        auto code = py::reinterpret_steal<py::object>(
            reinterpret_cast<PyObject*>(PyFrame_GetCode(tb->tb_frame)));
        auto* co = reinterpret_cast<PyCodeObject*>(code.ptr());
        Located located;
        located.frame.span = spanOf(co, tb->tb_lasti, tb->tb_lineno, located.sourceLine);
        located.frame.span.displayFile = files.display(located.frame.span.file);
        located.frame.function = codeName(co);
        frames.push_back(std::move(located));
    }
    return frames;
}

int intAttr(py::handle object, const char* name)
{
    py::object value = py::getattr(object, name, py::none());
    return PyLong_Check(value.ptr()) ? value.cast<int>() : 0;
}

std::string strAttr(py::handle object, const char* name, const char* errors = "backslashreplace")
{
    py::object value = py::getattr(object, name, py::none());
    return PyUnicode_Check(value.ptr()) ? utf8(value, errors) : std::string();
}

// "Exceeds the limit (4300 digits)" comes with a line but no column: point at the literal.
int columnOfLongNumber(const std::string& line)
{
    std::size_t run = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        run = (line[i] >= '0' && line[i] <= '9') ? run + 1 : 0;
        if (run > 4300)
            return utf8Characters(line, i + 1 - run) + 1;
    }
    return 0;
}

void locateSyntaxError(Diagnostic& d, py::handle value, const UserFiles& files)
{
    d.message = strAttr(value, "msg");
    d.span.file = strAttr(value, "filename", "surrogateescape");
    d.span.displayFile = files.display(d.span.file);
    d.span.line = intAttr(value, "lineno");
    d.span.column = intAttr(value, "offset");
    d.span.endLine = intAttr(value, "end_lineno");
    d.span.endColumn = intAttr(value, "end_offset");
    d.sourceLine = strAttr(value, "text");
    while (!d.sourceLine.empty() && (d.sourceLine.back() == '\n' || d.sourceLine.back() == '\r'))
        d.sourceLine.pop_back();
    if (d.sourceLine.empty())
        d.sourceLine = sourceLineOf(d.span.file, d.span.line);
    if (d.span.column <= 0)
        d.span.column = columnOfLongNumber(d.sourceLine);
    if (d.span.column <= 0 && d.span.line > 0)
        d.span.column = 1;
}

std::string describeBriefly(py::handle value, const UserFiles& files)
{
    std::string text = exceptionTypeName(py::type::handle_of(value));
    const std::string message = utf8(value);
    if (!message.empty())
        text += ": " + message;
    py::object traceback = py::getattr(value, "__traceback__", py::none());
    std::vector<Located> frames = tracebackFrames(traceback, files);
    auto user = std::find_if(frames.rbegin(), frames.rend(),
                             [&](const Located& f) { return files.contains(f.frame.span.file); });
    if (user != frames.rend())
        text += " (at " + user->frame.span.displayFile + ":" + std::to_string(user->frame.span.line)
                + ":" + std::to_string(user->frame.span.column) + ")";
    return text;
}

void addNotes(Diagnostic& d, py::handle value, const UserFiles& files)
{
    py::object notes = py::getattr(value, "__notes__", py::none());
    if (PyList_Check(notes.ptr()) || PyTuple_Check(notes.ptr()))
        for (py::handle note : notes)
            d.notes.push_back(utf8(note));
    py::object current = py::reinterpret_borrow<py::object>(value);
    for (int depth = 0; depth < kMaxChainedNotes; ++depth) {
        py::object cause = py::getattr(current, "__cause__", py::none());
        const bool explicitCause = !cause.is_none();
        if (!explicitCause && !py::getattr(current, "__suppress_context__", py::bool_(false)).cast<bool>())
            cause = py::getattr(current, "__context__", py::none());
        if (cause.is_none() || !PyExceptionInstance_Check(cause.ptr()))
            break;
        d.notes.push_back((explicitCause ? "caused by " : "while handling ") + describeBriefly(cause, files));
        current = cause;
    }
}

} // namespace

std::string exceptionTypeName(const py::handle& type)
{
    const std::string name = strAttr(type, "__qualname__");
    const std::string module = strAttr(type, "__module__");
    if (module.empty() || module == "builtins" || module == "__main__")
        return name;
    return module + "." + name;
}

Diagnostic diagnoseException(const py::handle& type, const py::handle& value, const py::handle& traceback,
                             const UserFiles& files)
{
    Diagnostic d;
    d.type = exceptionTypeName(type);
    std::vector<Located> frames = tracebackFrames(traceback, files);
    for (const auto& f : frames)
        if (files.contains(f.frame.span.file))
            d.traceback.push_back(f.frame);

    if (value && PyErr_GivenExceptionMatches(type.ptr(), PyExc_SyntaxError)) {
        locateSyntaxError(d, value, files);
    } else {
        d.message = value ? utf8(value) : std::string();
        auto user = std::find_if(frames.rbegin(), frames.rend(),
                                 [&](const Located& f) { return files.contains(f.frame.span.file); });
        const Located* chosen = user != frames.rend() ? &*user : (frames.empty() ? nullptr : &frames.back());
        if (chosen) {
            d.span = chosen->frame.span;
            d.sourceLine = chosen->sourceLine;
        } else {
            d.span.file = files.script();
            d.span.displayFile = files.display(files.script());
        }
    }
    if (value)
        addNotes(d, value, files);
    return d;
}

Diagnostic diagnoseCompileOverflow(const py::handle& type, const py::handle& value, std::string_view source,
                                   const UserFiles& files)
{
    Diagnostic d;
    d.type = exceptionTypeName(type);
    d.message = utf8(value);
    if (d.message.empty())
        d.message = "Python's parser ran out of memory";
    d.notes.push_back("this statement nests deeper than Python's parser allows");
    d.span.file = files.script();
    d.span.displayFile = files.display(files.script());

    std::vector<std::size_t> lineEnds;
    for (std::size_t i = 0; i < source.size(); ++i)
        if (source[i] == '\n')
            lineEnds.push_back(i + 1);
    if (lineEnds.empty() || lineEnds.back() != source.size())
        lineEnds.push_back(source.size());

    py::object compile = py::module_::import("builtins").attr("compile");
    auto overflows = [&](std::size_t lines) {
        py::bytes prefix(source.data(), lineEnds[lines - 1]);
        try {
            compile(prefix, d.span.file, "exec", 0, true);
        } catch (py::error_already_set& e) {
            return e.matches(PyExc_MemoryError) || e.matches(PyExc_RecursionError);
        }
        return false;
    };
    // The smallest prefix that still overflows ends with the offending line.
    std::size_t lo = 1, hi = lineEnds.size();
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (overflows(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    const std::size_t begin = lo >= 2 ? lineEnds[lo - 2] : 0;
    d.sourceLine = std::string(source.substr(begin, lineEnds[lo - 1] - begin));
    while (!d.sourceLine.empty() && (d.sourceLine.back() == '\n' || d.sourceLine.back() == '\r'))
        d.sourceLine.pop_back();
    d.span.line = static_cast<int>(lo);
    const auto first = d.sourceLine.find_first_not_of(" \t");
    d.span.column = first == std::string::npos ? 1 : utf8Characters(d.sourceLine, first) + 1;
    return d;
}

} // namespace gradstep::python
