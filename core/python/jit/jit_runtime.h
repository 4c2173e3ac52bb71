// Graph mode at run time: which mode applies, the compile cache, running compiled functions and
// Cells, @jit, and the engine gradient functions use in graph mode. Note [Graph mode runtime]:
// a call compiles (jit_compiler.h) on a cache miss, keyed by the function's identity and its
// arguments' shapes and dtypes (and the Python values of the others, a Cell's training flag,
// set_context(max_call_depth), and the shapes and dtypes of the Parameters it read, so a
// Parameter.set_data to a new shape recompiles); the graph goes through the default pass pipeline and runs on a GraphExecutor, which
// emits node events like PyNative. Each compile is reported to the observer (graphCompiled) and
// counted (jitCompileCount), so a recompile for a new shape is visible.
// SPDX-License-Identifier: MIT
#pragma once

#include "python/host/run_vocabulary.h"

#include "api/grad.h"

#include <pybind11/pybind11.h>

#include <cstddef>
#include <memory>

namespace gradstep::python {

/// A new run compiles afresh: clears the compile cache and the counts.
void resetJitForRun();
/// GRAPH_MODE by set_context or the run's mode override (run_context.h; PyNative by the override
/// wins).
bool graphModeActive();
/// @jit applies unless the override forces PyNative.
bool jitAllowed();
/// True for a function decorated with @jit (or ms_function).
bool isJitFunction(const pybind11::object& fn);

/// Cell.__call__ in graph mode: the Cell compiled (its construct from source, gradient calls and
/// Parameter writes included) and run; null when its construct holds what cannot compile and
/// must run in Python (Note [Gradients inside compiled code], jit_gradient.cpp).
pybind11::object callCellCompiled(const pybind11::object& cell, const pybind11::args& args,
                                  const pybind11::kwargs& kwargs);
/// Whether Cell.__call__ should compile this Cell now (graph mode, not compiling already, not a
/// loss-scale training cell, no tape recording around it).
bool compilesCell(const pybind11::object& cell);

/// @jit / @ms_function: a callable that compiles fn (binds to self as a method does).
pybind11::object jitWrapper(const pybind11::object& fn);

/// In graph mode, an engine guard for one call of a gradient function over fn (null in PyNative
/// mode): the core hands the call to the compiled forward + backward graph.
std::unique_ptr<GraphDifferentiatorGuard> graphGradient(const pybind11::object& fn,
                                                        const pybind11::args& args,
                                                        const pybind11::kwargs& kwargs,
                                                        bool sensParam, const std::string& api);

/// Compilations since the run started (a debugger reads it; graphCompiled events say which).
std::size_t jitCompileCount();

/// mindspore._value_dependent_shape(op, input): the package's ops whose output shape depends on
/// their input's values call it; while tracing it sends the body to Python (runCompiled).
void bindValueDependentShape(pybind11::module_& m);
/// mindspore._random_draw(op): the package's NumPy-drawn random functions call it; while tracing it
/// sends the body to Python, so each call draws anew.
void bindRandomDraw(pybind11::module_& m);
/// mindspore._jit_stats(): {"compiles": n, "cache_hits": m, "last_compile_ms": t, "fallbacks": f}
/// (f: functions and Cells whose bodies ran in Python because they could not be compiled).
void bindJitStats(pybind11::module_& m);
/// mindspore._jit_tracing() and mindspore._jit_write_parameter(parameter, value) (jit_state.cpp).
void bindJitState(pybind11::module_& m);
/// mindspore._export_graph and mindspore._GraphRunner: compiled graphs to and from the MINDIR
/// files of train/_mindir.py (jit_export.cpp).
void bindGraphExport(pybind11::module_& m);

} // namespace gradstep::python
