// Python callables as core Functions for grad, value_and_grad and GradOperation: the call's
// Python arguments become core Values (Tensors, and None / tuples of Tensors for the sens), and
// the function receives each argument back as the caller gave it, except the Tensors the core
// replaced by watched ones at the differentiated positions. ints, flags, strings and lists pass
// through unchanged. Everything here runs with the GIL held. SPDX-License-Identifier: MIT
#pragma once

#include "api/grad.h"

#include <pybind11/pybind11.h>

#include <cstdint>
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
    /// TypeError unless every position in range holds a Tensor (the core checks the range).
    void requireTensorsAt(const std::vector<std::int64_t>& positions) const;

private:
    pybind11::object m_fn;
    pybind11::tuple m_args;
    pybind11::dict m_kwargs;
    std::vector<Value> m_values;
    std::string m_api;
};

/// fn, or TypeError naming `api` when fn is not callable.
pybind11::object requireCallable(pybind11::handle fn, const std::string& api);

} // namespace gradstep::python
