// Core errors reach Python as the exceptions users expect, message intact (it names the op, the
// shapes and the attributes): shapes and argument values -> ValueError, dtypes and argument kinds
// -> TypeError, indices -> IndexError, the rest -> RuntimeError. SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"

#include "tensor/errors.h"
#include "tensor/located_error.h"

#include <new>

namespace py = pybind11;

namespace gradstep::python {

void bindErrors()
{
    py::register_exception_translator([](std::exception_ptr error) {
        try {
            if (error)
                std::rethrow_exception(error);
        } catch (const ShapeError& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const ValueError& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const DTypeError& e) {
            PyErr_SetString(PyExc_TypeError, e.what());
        } catch (const TypeError& e) {
            PyErr_SetString(PyExc_TypeError, e.what());
        } catch (const LocatedRuntimeError& e) {
            // The place goes where diagnostics look for compile errors' places (diagnose.cpp).
            PyErr_SetString(PyExc_RuntimeError, e.message().c_str());
            PyObject* type = nullptr;
            PyObject* value = nullptr;
            PyObject* traceback = nullptr;
            PyErr_Fetch(&type, &value, &traceback);
            PyErr_NormalizeException(&type, &value, &traceback);
            if (value) {
                const py::object where = py::make_tuple(e.file(), e.line(), e.column(), e.line(), e.column());
                PyObject_SetAttrString(value, "_gradstep_location", where.ptr());
            }
            PyErr_Restore(type, value, traceback);
        } catch (const IndexError& e) {
            PyErr_SetString(PyExc_IndexError, e.what());
        } catch (const AllocationError& e) {
            PyErr_SetString(PyExc_MemoryError, e.what());
        } catch (const std::bad_alloc&) {
            // Not from an op or a tensor (those name what they asked for): never pybind11's
            // bare "std::bad_alloc".
            PyErr_SetString(PyExc_MemoryError, "out of memory: gradstep could not allocate what this call "
                                               "needs (the process has reached its memory limit)");
        } catch (const Error& e) {
            PyErr_SetString(PyExc_RuntimeError, e.what());
        }
    });
}

} // namespace gradstep::python
