// mindspore.communication's C++ half (bind_communication.cpp); the Python half is
// package/mindspore/communication/management.py. SPDX-License-Identifier: MIT
#pragma once

#include <pybind11/pybind11.h>

namespace gradstep::python {

/// The world and group queries over core/dist, and nn's gradient reduction, as private functions
/// of mindspore.communication (_init, _rank, ...) that management.py wraps in MindSpore's API.
void bindCommunication(pybind11::module_& communication);

} // namespace gradstep::python
