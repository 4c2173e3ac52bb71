// mindspore._no_grad_enter / _no_grad_exit: the core's no-grad region (NoGradGuard) for
// mindspore._no_grad's `with` form (package: mindspore/ops/_transforms_no_grad.py). Only the
// depth a script entered itself can be left, and whatever a run left open is closed before the
// next run (resetNoGrad). SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"

#include "autodiff/context.h"

namespace py = pybind11;

namespace gradstep::python {

namespace {

/// Regions entered from Python on this thread and not left yet.
thread_local int t_entered = 0;

} // namespace

void bindNoGrad(py::module_& m)
{
    m.def("_no_grad_enter", [] {
        ++executionContext().noGradDepth;
        ++t_entered;
    });
    m.def("_no_grad_exit", [] {
        if (t_entered == 0)
            throw py::value_error("_no_grad_exit without a matching _no_grad_enter");
        --executionContext().noGradDepth;
        --t_entered;
    });
}

void resetNoGrad()
{
    executionContext().noGradDepth -= t_entered;
    t_entered = 0;
}

} // namespace gradstep::python
