// Writes to state while compiling, and what repeats on every run of a compiled graph.
// SPDX-License-Identifier: MIT
//
// Note [Side effects in compiled code]
// MindSpore orders a compiled function's side effects with auto-monad: a read of a Parameter
// before `ops.assign` sees the old value, a read after it the new one, and the writes happen in
// program order. We keep the graph pure and get the same order from SSA: a write (ops.assign,
// assign_add, assign_sub, ops.depend's operands, BatchNorm's running statistics, the C++
// optimizers' updates of weights and moments) makes the written tensor stand for the written
// value in the tracer (bindExternal), so later reads use the new value and earlier reads keep
// the graph input; the last value of each written tensor is an extra graph output that the
// runtime copies into the tensor after the run (jit_runtime.cpp). Because the graph reads only
// its inputs and writes only after it finishes, no node can see a half-updated Parameter, which
// is what auto-monad's ordering guarantees. Host-side state (an optimizer's step count) and the
// events a PyNative step sends (gradient calls, the update) are RunEffects repeated around every
// run with the run's values, so the debugger counts compiled steps as it counts PyNative ones.
// A write inside a tensor-dependent if / while body has no value on the other path and stays in
// Python (an untraceable call, Note [Gradients inside compiled code] in jit_gradient.cpp).
#include "python/jit/jit_walker.h"

#include "python/bind/bindings.h"
#include "python/bind/convert.h"

#include "autodiff/context.h"
#include "ops/elementwise.h"

namespace gradstep::python {

void StateWrites::set(const Tensor& target, ValueId value)
{
    for (std::size_t i = 0; i < targets.size(); ++i)
        if (targets[i].sameAs(target)) {
            values[i] = value;
            return;
        }
    targets.push_back(target);
    values.push_back(value);
}

void Compiler::write(const Tensor& target, const Tensor& value)
{
    const Builder& here = m_builders.back();
    if (!here.writes) {
        ++executionContext().untraceableCalls;
        throw RuntimeError("a Parameter written inside a tensor-dependent if or while cannot be "
                           "compiled");
    }
    if (!(value.shape() == target.shape()))
        throw ValueError("the value written to a Parameter of shape " + target.shape().toString()
                         + " has shape " + value.shape().toString());
    const Tensor v = value.dtype() == target.dtype() ? value : cast(value, target.dtype());
    const ValueId id = here.tracer->valueOf(v);
    here.tracer->bindExternal(target, id);
    here.writes->set(target, id);
}

void Compiler::everyRun(std::function<void()> before, std::function<void(const TensorList&)> after,
                        const TensorList& traced, EffectTime time)
{
    if (m_builders.size() > 1) { // the effect's values live in a subgraph: they never reach a run
        ++executionContext().untraceableCalls;
        throw RuntimeError("an optimizer update inside a subgraph (an if or while on a tensor, or "
                           "a differentiated function) cannot be compiled");
    }
    RunEffect effect{std::move(before), std::move(after), m_effectValues.size(), traced.size(), time};
    for (const Tensor& t : traced)
        m_effectValues.push_back(m_tracer.valueOf(t));
    m_effects.push_back(std::move(effect));
}

void Compiler::appendStateOutputs(std::vector<ValueId>& outputs, std::vector<Tensor>& targets,
                                  std::vector<RunEffect>& effects)
{
    outputs.insert(outputs.end(), m_writes.values.begin(), m_writes.values.end());
    targets = m_writes.targets;
    outputs.insert(outputs.end(), m_effectValues.begin(), m_effectValues.end());
    effects = m_effects;
}

void bindJitState(py::module_& m)
{
    m.def("_jit_tracing", [] { return jitCompiling(); },
          "gradstep: whether a function is being compiled for graph mode now.");
    m.def(
        "_jit_write_parameter",
        [](const py::object& parameter, const py::object& value) {
            const Tensor* target = asTensor(parameter);
            const Tensor* v = asTensor(value);
            if (!target || !v)
                throw py::type_error("_jit_write_parameter takes a Parameter and a Tensor");
            writeState(*target, *v);
        },
        py::arg("parameter"), py::arg("value"),
        "gradstep: while compiling, a write of the Parameter (Note [Side effects in compiled "
        "code]).");
    m.def(
        "_jit_pullback",
        [](const py::object& gradFunction, const py::args& args) {
            if (!jitCompiling())
                return gradFunction(*args);
            PullbackOnlyGuard pullback;
            return gradFunction(*args);
        },
        py::arg("grad_function"),
        "gradstep: grad_function(*args), a pullback of a forward already traced: while compiling, "
        "its Parameter writes are left out (ops.vjp's vjp_fn).");
}

} // namespace gradstep::python
