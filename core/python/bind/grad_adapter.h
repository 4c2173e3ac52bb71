// Python callables as core Functions for grad, value_and_grad and GradOperation: the call's
// Python arguments become core Values (Tensors, and None / tuples of Tensors for the sens), and
// the function receives each argument back as the caller gave it, except the Tensors the core
// replaced by watched ones at the differentiated positions. ints, flags, strings and lists pass
// through unchanged. Everything here runs with the GIL held. SPDX-License-Identifier: MIT
#pragma once

#include "api/grad.h"
#include "python/host/run_vocabulary.h"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gradstep::python {

/// One call of a gradient function made from Python.
class PythonCall {
public:
    /// `api` names the API in messages ("grad"); sensParam: the last argument (or the keyword
    /// `sens`, moved to the end) is the output's cotangent and must be Value-like.
    PythonCall(pybind11::object fn, const pybind11::args& args, const pybind11::kwargs& kwargs,
               std::string api, bool sensParam);

    /// The arguments as core Values (placeholders None for what the core cannot hold).
    const std::vector<Value>& values() const { return m_values; }
    /// fn as a core Function that calls it with the original arguments (see above).
    Function function() const;

private:
    pybind11::object m_fn;
    pybind11::tuple m_args;
    pybind11::dict m_kwargs;
    std::vector<Value> m_values;
    std::string m_api;
};

/// has_aux as the run's override says (run_context.h): `asWritten` unless forced on or off.
bool effectiveHasAux(bool asWritten);

/// GradApiOverride::GradFallback for a value_and_grad call: `value = fn(*args, **kwargs)`, then
/// the grad-only function of the same arguments (the forward runs twice); returns
/// (value, gradients) as value_and_grad does.
Value fallbackValueAndGrad(const pybind11::object& fn, const PythonCall& call,
                           const pybind11::args& args, const pybind11::kwargs& kwargs,
                           const GradPosition& position, const Weights& weights, bool hasAux);
/// GradApiOverride::ValueAndGrad for a grad call: one value_and_grad call whose gradients come
/// back in grad's structure ((gradients, aux) with has_aux).
Value gradViaValueAndGrad(const PythonCall& call, const GradPosition& position,
                          const Weights& weights, bool hasAux);

struct GradOperationFlags {
    bool getAll = false;
    bool getByList = false;
    bool sensParam = false;
};
/// GradApiOverride::ValueAndGrad for a GradOperation call, in GradOperation's structure; nullopt
/// when the call differentiates nothing by value_and_grad's rules (no tensor inputs and no
/// weights), so the caller runs GradOperation itself.
std::optional<Value> gradOperationViaValueAndGrad(const PythonCall& call,
                                                  const GradOperationFlags& flags,
                                                  const Weights& weights);

/// fn, or TypeError naming `api` when fn is not callable.
pybind11::object requireCallable(pybind11::handle fn, const std::string& api);

} // namespace gradstep::python
