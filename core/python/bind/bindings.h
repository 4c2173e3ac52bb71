// The embedded `mindspore` package: how its pieces are assembled (module_mindspore.cpp calls each
// bind* function) and what the host needs from it. Every bind_*.cpp file is one translation unit
// so the slow pybind11 code compiles in parallel. Call everything with the GIL held.
//
// Adding to the package: write bind_<area>.cpp with `void bind<Area>(pybind11::module_&)`, declare
// it here and call it from module_mindspore.cpp on the submodule (m.attr("nn"), m.attr("ops"), or
// a new def_submodule, which also makes `import mindspore.<name>` work). convert.h turns Python
// values into tensors and dtypes; core errors (gradstep::ShapeError, ...) thrown by bound
// functions become Python exceptions by themselves (bind_errors.cpp). A class deriving from Tensor
// (Parameter) is bound after bindTensor with pybind11::class_<Parameter, Tensor>.
// SPDX-License-Identifier: MIT
#pragma once

#include "nn/parameter.h"
#include "python/host/run_vocabulary.h"
#include "tensor/tensor.h"

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace gradstep::python {

/// Imports the embedded `mindspore` (Host::start) and remembers it and its submodules.
void installMindspore();
/// Drops the references the package keeps for the interpreter's lifetime (Host::shutdown, with
/// the GIL, just before finalising).
void releaseMindspore();
/// Before each run: puts our modules back into sys.modules (a script may have replaced them),
/// resets context and seed to their defaults and applies the API profile (api_profile.h). The
/// run's what-if switches travel with the run (run_context.h).
void prepareMindsporeForRun(const std::string& apiProfile = "2.x");

using TensorClass = pybind11::class_<Tensor>;

void bindErrors();
/// mindspore.float32 ... on `m` and on mindspore.common.dtype.
void bindDtypes(pybind11::module_& m, pybind11::module_& dtypeModule);
/// mindspore.Tensor: construction, conversions, properties; returns the class for the others.
TensorClass bindTensor(pybind11::module_& m);
/// Python operators (+ - * / @ ** unary, comparisons, reflected forms with scalars).
void bindTensorOperators(TensorClass& cls);
/// reshape, transpose, sum, mean, ... and __getitem__.
void bindTensorMethods(TensorClass& cls);
/// mindspore.Parameter (a subclass of Tensor) and mindspore.ParameterTuple (a subclass of tuple).
void bindParameter(pybind11::module_& m);
/// mindspore.nn (Cell, layers, losses, wrappers, optimizers) and mindspore.common.initializer.
void bindNn(pybind11::module_& nn, pybind11::module_& initializer);
/// A new mindspore.ParameterTuple holding Python objects for `parameters`.
pybind11::object makeParameterTuple(const std::vector<Parameter>& parameters);
/// A Parameter, or a list / tuple / ParameterTuple of Parameters, as core Parameters; TypeError
/// naming `what` ("For 'grad', 'weights'") otherwise.
std::vector<Parameter> toParameters(pybind11::handle object, const std::string& what);
/// set_context / get_context / modes on `m` and on mindspore.context; set_seed, __version__.
void bindContext(pybind11::module_& m, pybind11::module_& context);
void resetContext();
/// set_context's mode: 0 GRAPH_MODE, 1 PYNATIVE_MODE (the default).
int contextMode();
/// set_context's max_call_depth (MindSpore's default 1000): graph mode's bound on the iterations
/// of a `while` on a tensor condition.
std::int64_t contextMaxCallDepth();
/// set_context's check_bprop (default False): check a Cell's bprop gradients against its inputs.
bool contextCheckBprop();
/// mindspore.ops: functional ops, primitive classes, and the ops.functional / ops.operations aliases.
void bindOps(pybind11::module_& ops);
/// mindspore.dataset on `dataset`: sources, pipeline operations, iterators, config, transforms
/// and vision.
void bindDataset(pybind11::module_& dataset);
/// mindspore.grad / value_and_grad / get_grad / jit / ms_function, and mindspore.ops.grad /
/// value_and_grad / GradOperation / stop_gradient (bind_grad.cpp; needs m.ops).
void bindGrad(pybind11::module_& m);
/// mindspore._no_grad_enter / _no_grad_exit (bind_no_grad.cpp); resetNoGrad closes what a run
/// left open.
void bindNoGrad(pybind11::module_& m);
void resetNoGrad();
/// mindspore._op_timing_start / _op_timing_stop / _op_timing_clear / _op_timings
/// (bind_profiler.cpp) for the package's Profiler.
void bindProfiler(pybind11::module_& m);
/// mindspore._BatchTracer and _vmap_stats (bind_vmap.cpp) for the package's vmap.
void bindVmap(pybind11::module_& m);
/// mindspore._JvpTracer and _jvp_stats (bind_jvp.cpp) for the package's jvp and jacfwd.
void bindJvp(pybind11::module_& m);
/// api_profile.cpp: take the 2.x names when the host starts, apply a profile before each run
/// (ValueError for an unknown one), drop the references at shutdown.
void captureApiProfiles();
void applyApiProfile(const std::string& profile);
void releaseApiProfiles();
void releaseDtypes();
void releaseContext();

} // namespace gradstep::python
