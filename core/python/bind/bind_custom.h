// mindspore.ops._custom_pyfunc / _custom_aot and their kernel class: the C++ half of ops.Custom.
// SPDX-License-Identifier: MIT
#pragma once

#include <pybind11/pybind11.h>

namespace gradstep::python {

/// Binds ops.Custom's kernels on `ops` (bind_custom.cpp).
void bindCustom(pybind11::module_& ops);

} // namespace gradstep::python
