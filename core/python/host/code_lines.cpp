// SPDX-License-Identifier: MIT
#include "python/host/code_lines.h"

#include <Python.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

namespace gradstep::python {

namespace {

constexpr std::uintmax_t kMaxBytes = std::uintmax_t{64} << 20;

// Every line a code object's instructions carry, and those of the functions and classes it
// defines (nested code objects sit among its constants).
void collect(PyObject* code, std::vector<int>& lines, int depth)
{
    if (depth > 200)
        return;
    PyObject* table = PyObject_CallMethod(code, "co_lines", nullptr);
    PyObject* iterator = table ? PyObject_GetIter(table) : nullptr;
    Py_XDECREF(table);
    if (!iterator) {
        PyErr_Clear();
        return;
    }
    while (PyObject* entry = PyIter_Next(iterator)) {
        if (PyTuple_Check(entry) && PyTuple_GET_SIZE(entry) == 3) {
            PyObject* line = PyTuple_GET_ITEM(entry, 2);
            if (line != Py_None) {
                const long value = PyLong_AsLong(line);
                if (value > 0)
                    lines.push_back(static_cast<int>(value));
                else
                    PyErr_Clear();
            }
        }
        Py_DECREF(entry);
    }
    Py_DECREF(iterator);
    PyErr_Clear();
    PyObject* consts = PyObject_GetAttrString(code, "co_consts");
    if (consts && PyTuple_Check(consts))
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(consts); ++i)
            if (PyCode_Check(PyTuple_GET_ITEM(consts, i)))
                collect(PyTuple_GET_ITEM(consts, i), lines, depth + 1);
    Py_XDECREF(consts);
    PyErr_Clear();
}

} // namespace

std::vector<int> codeLines(const std::filesystem::path& script)
{
    // Never open a FIFO or a device (opening a FIFO without a writer blocks); the run refuses them.
    std::error_code error;
    if (!std::filesystem::is_regular_file(script, error) || std::filesystem::file_size(script, error) > kMaxBytes
        || error)
        return {};
    std::ifstream in(script, std::ios::binary);
    if (!in)
        return {};
    std::ostringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    if (source.find('\0') != std::string::npos)
        return {};
    std::vector<int> lines;
    const PyGILState_STATE gil = PyGILState_Ensure();
    if (PyObject* code = Py_CompileString(source.c_str(), script.string().c_str(), Py_file_input)) {
        collect(code, lines, 0);
        Py_DECREF(code);
    }
    PyErr_Clear();
    PyGILState_Release(gil);
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    return lines;
}

} // namespace gradstep::python
