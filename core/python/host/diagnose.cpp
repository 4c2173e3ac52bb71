// From a Python exception to a Diagnostic. Frames come straight from the traceback objects and
// their code positions (what traceback.py prints as carets); SyntaxError carries its own location.
// SPDX-License-Identifier: MIT
#include "python/host/diagnose.h"

#include "python/host/frames.h"

#include <algorithm>
#include <cctype>

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
    // Python reads `text` back from the file in 1,000-byte pieces and keeps the last piece of a
    // long line; linecache has the whole line. `text` is the fallback (undecodable files).
    d.sourceLine = sourceLineOf(d.span.file, d.span.line);
    if (d.sourceLine.empty()) {
        d.sourceLine = strAttr(value, "text");
        while (!d.sourceLine.empty() && (d.sourceLine.back() == '\n' || d.sourceLine.back() == '\r'))
            d.sourceLine.pop_back();
    }
    if (d.span.column <= 0)
        d.span.column = columnOfLongNumber(d.sourceLine);
    if (d.span.column <= 0 && d.span.line > 0)
        d.span.column = 1;
}

// Graph mode's compile errors carry the place in the user's source they are about (an `if`
// whose branches do not join, a list.append on a list outside the function): jit_compiler.h
// annotateLocation.
bool locateCompileError(Diagnostic& d, py::handle value, const UserFiles& files)
{
    py::object where = py::getattr(value, "_gradstep_location", py::none());
    if (!PyTuple_Check(where.ptr()) || py::len(where) != 5)
        return false;
    d.span.file = utf8(where[py::int_(0)], "surrogateescape");
    d.span.displayFile = files.display(d.span.file);
    d.span.line = where[py::int_(1)].cast<int>();
    d.span.column = where[py::int_(2)].cast<int>();
    d.span.endLine = where[py::int_(3)].cast<int>();
    d.span.endColumn = where[py::int_(4)].cast<int>();
    d.sourceLine = sourceLineOf(d.span.file, d.span.line);
    return true;
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

// CPython's suggestion distance (Python/suggestions.c): edits cost 2, a change of case 1.
std::size_t editDistance(const std::string& a, const std::string& b, std::size_t limit)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j * 2;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i * 2;
        std::size_t best = row[0];
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const char x = a[i - 1], y = b[j - 1];
            const std::size_t substitute = x == y ? 0 : (std::tolower(static_cast<unsigned char>(x))
                                                          == std::tolower(static_cast<unsigned char>(y)) ? 1 : 2);
            const std::size_t next = std::min({row[j] + 2, row[j - 1] + 2, diagonal + substitute});
            diagonal = row[j];
            row[j] = next;
            best = std::min(best, next);
        }
        if (best > limit)
            return limit + 1;
    }
    return row[b.size()];
}

std::string closestName(const std::string& name, py::handle candidates)
{
    constexpr std::size_t kMaxCandidates = 750;
    const std::size_t limit = (name.size() + 3) * 2 / 6;
    std::string best;
    std::size_t bestDistance = limit + 1;
    std::size_t seen = 0;
    for (py::handle candidate : candidates) {
        if (++seen > kMaxCandidates || !PyUnicode_Check(candidate.ptr()))
            continue;
        const std::string text = utf8(candidate);
        if (text == name)
            continue;
        const std::size_t distance = editDistance(name, text, limit);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = text;
        }
    }
    return best;
}

// Python's own traceback printing adds "Did you mean" for NameError and AttributeError (in C,
// not reachable from here); the same search over the same names.
std::string suggestion(py::handle type, py::handle value, py::handle traceback)
{
    py::object name = py::getattr(value, "name", py::none());
    if (!PyUnicode_Check(name.ptr()))
        return {};
    try {
        py::list candidates;
        if (PyErr_GivenExceptionMatches(type.ptr(), PyExc_NameError)) {
            auto* tb = reinterpret_cast<PyTracebackObject*>(traceback.ptr());
            if (!tb || traceback.is_none())
                return {};
            while (tb->tb_next)
                tb = tb->tb_next;
            py::handle frame(reinterpret_cast<PyObject*>(tb->tb_frame));
            for (const char* scope : {"f_locals", "f_globals", "f_builtins"})
                for (py::handle key : frame.attr(scope))
                    candidates.append(key);
        } else if (PyErr_GivenExceptionMatches(type.ptr(), PyExc_AttributeError)) {
            py::object object = py::getattr(value, "obj", py::none());
            candidates = py::module_::import("builtins").attr("dir")(object);
        }
        return closestName(utf8(name), candidates);
    } catch (py::error_already_set&) {
        return {};
    }
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

/// The smallest number of lines whose prefix of `source` still overflows compile() (the prefix
/// ending with the offending statement's first line). lineEnds: byte offset after each line.
std::size_t firstOverflowingLine(std::string_view source, const std::vector<std::size_t>& lineEnds,
                                 const std::string& file)
{
    py::object compile = py::module_::import("builtins").attr("compile");
    auto overflows = [&](std::size_t lines) {
        py::bytes prefix(source.data(), lineEnds[lines - 1]);
        try {
            compile(prefix, file, "exec", 0, true);
        } catch (py::error_already_set& e) {
            return e.matches(PyExc_MemoryError) || e.matches(PyExc_RecursionError);
        }
        return false;
    };
    std::size_t lo = 1, hi = lineEnds.size();
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (overflows(mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
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
        if (value) {
            const std::string similar = suggestion(type, value, traceback);
            if (!similar.empty())
                d.message += ". Did you mean: '" + similar + "'?";
        }
        auto user = std::find_if(frames.rbegin(), frames.rend(),
                                 [&](const Located& f) { return files.contains(f.frame.span.file); });
        const Located* chosen = user != frames.rend() ? &*user : (frames.empty() ? nullptr : &frames.back());
        if (value && locateCompileError(d, value, files)) {
            // the graph compiler named the place (an `if`, a print) in the user's source
        } else if (chosen) {
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
    const std::size_t lo = firstOverflowingLine(source, lineEnds, d.span.file);
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
