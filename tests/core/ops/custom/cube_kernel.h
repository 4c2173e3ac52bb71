// A Custom kernel written in C++ for the tests: y = x³ over float64, dy/dx = 3x² (its bprop uses
// ops, so grad of grad differentiates it). SPDX-License-Identifier: MIT
#pragma once

#include "ops/custom/custom_kernel.h"

namespace gradstep::testing {

/// The cube kernel; withBprop false leaves its backward empty (no bprop).
std::shared_ptr<const CustomKernel> cubeKernel(bool withBprop = true);

} // namespace gradstep::testing
