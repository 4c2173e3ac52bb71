// SPDX-License-Identifier: MIT
#include "python/host/source_locator.h"

#include "python/host/frames.h"

namespace gradstep::python {

namespace {
// User code deeper than this below the op call is not searched (a library calling back into
// user code that deep is unusual; the op then has no location rather than a slow lookup).
constexpr int kMaxFrames = 64;
} // namespace

SourceLocator::SourceLocator(UserFiles files) : m_files(std::move(files)) {}

SourceLocator::~SourceLocator()
{
    for (auto& [code, info] : m_codes)
        Py_DECREF(reinterpret_cast<PyObject*>(code));
}

const SourceLocator::CodeInfo& SourceLocator::codeInfo(PyCodeObject* code)
{
    auto it = m_codes.find(code);
    if (it != m_codes.end())
        return it->second;
    CodeInfo info;
    const std::string file = codeFile(code);
    info.user = m_files.contains(file);
    if (info.user)
        info.file = std::make_shared<const std::string>(file);
    Py_INCREF(reinterpret_cast<PyObject*>(code));
    return m_codes.emplace(code, std::move(info)).first->second;
}

SourceLocator::Position SourceLocator::position(PyCodeObject* code, int lasti)
{
    const auto key = std::make_pair(code, lasti);
    auto it = m_positions.find(key);
    if (it != m_positions.end())
        return it->second;
    std::string line;
    const SourceSpan span = spanOf(code, lasti, PyCode_Addr2Line(code, lasti), line);
    return m_positions.emplace(key, Position{span.line, span.column}).first->second;
}

SourceLocation SourceLocator::current()
{
    SourceLocation location;
    if (!PyGILState_Check())
        return location;
    PyFrameObject* frame = PyEval_GetFrame(); // borrowed
    PyObject* owned = nullptr;                // reference to frame when it came from GetBack
    for (int depth = 0; frame && depth < kMaxFrames; ++depth) {
        PyCodeObject* code = PyFrame_GetCode(frame);
        const CodeInfo& info = codeInfo(code);
        if (info.user) {
            const Position p = position(code, PyFrame_GetLasti(frame));
            location.file = info.file;
            location.line = p.line;
            location.column = p.column;
            Py_DECREF(reinterpret_cast<PyObject*>(code));
            break;
        }
        Py_DECREF(reinterpret_cast<PyObject*>(code));
        PyFrameObject* back = PyFrame_GetBack(frame); // new reference
        Py_XDECREF(owned);
        owned = reinterpret_cast<PyObject*>(back);
        frame = back;
    }
    Py_XDECREF(owned);
    return location;
}

} // namespace gradstep::python
