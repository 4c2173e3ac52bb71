// What MindSpore checks about a Python Cell's user-defined bprop before the core uses its
// gradients: never a Parameter of the Cell inside bprop (always), and, with
// set_context(check_bprop=True), one gradient per input with the input's dtype and shape.
// SPDX-License-Identifier: MIT
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace gradstep::python {

/// RuntimeError when the bprop of `cell` (a Python Cell) names one of the Cell's Parameters:
/// MindSpore's PyNative refuses such a bprop, as its gradients would miss the Parameter's own.
void checkBpropUsesNoParameter(pybind11::handle cell);

/// With check_bprop set: TypeError for a wrong number of gradients or a gradient that is not a
/// Tensor (or has another dtype) where the input is a Tensor, ValueError for another shape.
/// `inputs` are the bprop's inputs without out and dout; `grads` what it returned.
void checkBpropGradients(const pybind11::list& inputs, pybind11::handle grads, const std::string& cellName);

} // namespace gradstep::python
