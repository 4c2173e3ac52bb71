// The amp what-if of a run (RunOverrides::amp, `compare --what amp`): Cells asked to compute in
// half precision stay in float32 under O0, and under O2 a script that asked for none gets amp's
// O2 on the network it first calls. State is the run's (run_context.h). SPDX-License-Identifier: MIT
#pragma once

#include "tensor/dtype.h"

#include <pybind11/pybind11.h>

#include <optional>

namespace gradstep::python {

/// The dtype a Cell is really set to compute in (or cast its output to) when the script asks for
/// `requested`: float32 instead of a half type under AmpOverride::O0. Notes that the script asked
/// for half precision.
std::optional<DType> runAmpDType(std::optional<DType> requested);
/// Called by Cell.__call__: under AmpOverride::O2, the first top-level call of a Cell holding
/// Parameters, in a run that asked for no half precision, applies amp's O2 to that Cell (once).
void applyRunAmpInto(const pybind11::object& cell);
/// mindspore._amp_override(): "O0", "O2" or None (as written).
void bindAmpOverride(pybind11::module_& m);

} // namespace gradstep::python
