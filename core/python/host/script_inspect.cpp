// SPDX-License-Identifier: MIT
#include "python/host/script_inspect.h"

#include "python/host/frames.h"

#include <algorithm>

namespace py = pybind11;

namespace gradstep::python {

namespace {

constexpr std::size_t kMaxValueCharacters = 200;

std::string shortRepr(py::handle value)
{
    PyObject* text = PyObject_Repr(value.ptr());
    if (!text) {
        PyErr_Clear();
        return "<repr() failed>";
    }
    std::string s = utf8(py::reinterpret_steal<py::object>(text));
    if (s.size() > kMaxValueCharacters) {
        std::size_t cut = kMaxValueCharacters;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
            --cut; // keep whole UTF-8 characters
        s = s.substr(0, cut) + "...";
    }
    return s;
}

bool shown(const std::string& name, py::handle value)
{
    if (name.size() > 4 && name.rfind("__", 0) == 0 && name.compare(name.size() - 2, 2, "__") == 0)
        return false;
    return !PyModule_Check(value.ptr()) && !PyType_Check(value.ptr()) && !PyFunction_Check(value.ptr())
           && !PyCFunction_Check(value.ptr());
}

std::vector<Variable> variablesOf(py::handle frame)
{
    std::vector<Variable> variables;
    py::object locals = frame.attr("f_locals");
    for (auto item : py::dict(locals)) {
        const std::string name = utf8(item.first);
        if (!shown(name, item.second))
            continue;
        variables.push_back({name, utf8(py::type::handle_of(item.second).attr("__name__")), shortRepr(item.second)});
    }
    return variables;
}

} // namespace

std::vector<StackFrame> stackOfThread(unsigned long threadId, const UserFiles& files)
{
    std::vector<StackFrame> stack;
    try {
        py::dict frames = py::module_::import("sys").attr("_current_frames")();
        py::object frame = frames.attr("get")(py::int_(threadId));
        for (; !frame.is_none(); frame = frame.attr("f_back")) {
            auto code = py::reinterpret_steal<py::object>(
                reinterpret_cast<PyObject*>(PyFrame_GetCode(reinterpret_cast<PyFrameObject*>(frame.ptr()))));
            auto* co = reinterpret_cast<PyCodeObject*>(code.ptr());
            if (!files.contains(codeFile(co)))
                continue;
            StackFrame entry;
            std::string line;
            entry.frame.span = spanOf(co, PyFrame_GetLasti(reinterpret_cast<PyFrameObject*>(frame.ptr())),
                                      PyFrame_GetLineNumber(reinterpret_cast<PyFrameObject*>(frame.ptr())), line);
            entry.frame.span.displayFile = files.display(entry.frame.span.file);
            entry.frame.function = codeName(co);
            entry.locals = variablesOf(frame);
            stack.push_back(std::move(entry));
        }
    } catch (py::error_already_set&) {
        return {};
    }
    std::reverse(stack.begin(), stack.end());
    return stack;
}

} // namespace gradstep::python
