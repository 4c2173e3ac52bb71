// mindspore._BatchTracer and mindspore._vmap_stats: the core's batched tracing for vmap
// (package: mindspore/ops/_transforms_vmap.py; Note [Batching rules] in
// ops/batching/batch_rules.h). SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/convert.h"

#include "api/batch_tracer.h"

namespace py = pybind11;

namespace gradstep::python {

void bindVmap(py::module_& m)
{
    py::class_<BatchTracer>(m, "_BatchTracer", "gradstep: vmap's tracer of logical (per-element) tensors.")
        .def(py::init<std::int64_t>(), py::arg("batch_size"))
        .def("bind", &BatchTracer::bind, py::arg("physical"), py::arg("axis"),
             "A logical tensor standing for the slices of `physical` along `axis`.")
        .def(
            "physical",
            [](BatchTracer& tracer, py::handle value) -> py::object {
                const Tensor* t = asTensor(value);
                if (!t)
                    return py::none();
                const std::optional<Tensor> p = tracer.physical(*t);
                return p ? py::cast(*p) : py::none();
            },
            py::arg("value"), "The batched tensor (batch at axis 0) behind a logical one, or None.")
        .def("install", &BatchTracer::install)
        .def("uninstall", &BatchTracer::uninstall);
    m.def(
        "_vmap_stats",
        [] {
            const BatchStats& s = batchStats();
            return py::make_tuple(s.batchedOps, s.perElementOps, s.batchedGrads);
        },
        "gradstep: (op calls batched by a rule, op calls run per element, gradient calls batched) on "
        "this thread.");
}

} // namespace gradstep::python
