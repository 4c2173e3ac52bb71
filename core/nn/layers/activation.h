// get_activation: the activation Cell a layer's `activation` string names.
// SPDX-License-Identifier: MIT
#pragma once

#include "nn/cell.h"

#include <string>

namespace gradstep {

/// "relu", "sigmoid", "tanh", "softmax" -> a new Cell; an empty name gives null (no activation).
/// ValueError for any other name.
CellPtr getActivation(const std::string& name);

} // namespace gradstep
