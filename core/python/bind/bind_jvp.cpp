// mindspore._JvpTracer and mindspore._jvp_stats: the core's forward mode for ops.jvp and
// ops.jacfwd (package: mindspore/ops/_transforms.py; Note [Forward-mode rules] in
// ops/jvp/jvp_rules.h). SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"

#include "api/jvp_tracer.h"

namespace py = pybind11;

namespace gradstep::python {

void bindJvp(py::module_& m)
{
    py::class_<JvpTracer>(m, "_JvpTracer", "gradstep: forward mode's tracer of (primal, tangent) pairs.")
        .def(py::init<bool>(), py::arg("use_rules") = true)
        .def("seed", &JvpTracer::seed, py::arg("primal"), py::arg("tangent"),
             "A handle of `primal` whose tangent is `tangent`.")
        .def(
            "tangent",
            [](const JvpTracer& tracer, py::handle value) -> py::object {
                const Tensor* t = asTensor(value);
                if (!t)
                    return py::none();
                const std::optional<Tensor> tangent = tracer.tangent(*t);
                return tangent ? py::cast(*tangent) : py::none();
            },
            py::arg("value"), "The tangent of a tensor, or None when it is zero.")
        .def("install", &JvpTracer::install)
        .def("uninstall", &JvpTracer::uninstall);
    m.def(
        "_jvp_stats",
        [] {
            const JvpStats& s = jvpStats();
            return py::make_tuple(s.ruleOps, s.fallbackOps);
        },
        "gradstep: (op calls pushed forward by a rule, op calls pushed forward by their double vjp) on "
        "this thread.");
}

} // namespace gradstep::python
