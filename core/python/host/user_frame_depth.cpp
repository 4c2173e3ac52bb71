// How deep the script is in the user's own code: the number of user frames on this thread's
// Python stack. StepOver and StepOut compare it; they ask only while such a command runs, so a
// Continue pays nothing for it. SPDX-License-Identifier: MIT
#include "python/host/user_files.h"

#include <Python.h>

namespace gradstep::python {

int userFrameDepth(const UserFiles& files)
{
    if (!Py_IsInitialized() || !PyGILState_Check())
        return 0;
    int depth = 0;
    PyFrameObject* frame = PyThreadState_GetFrame(PyThreadState_Get());
    while (frame) {
        PyCodeObject* code = PyFrame_GetCode(frame);
        Py_ssize_t size = 0;
        const char* name = PyUnicode_AsUTF8AndSize(code->co_filename, &size);
        if (!name)
            PyErr_Clear();
        else if (files.contains(std::string_view(name, static_cast<std::size_t>(size))))
            ++depth;
        Py_DECREF(code);
        PyFrameObject* back = PyFrame_GetBack(frame);
        Py_DECREF(frame);
        frame = back;
    }
    return depth;
}

} // namespace gradstep::python
