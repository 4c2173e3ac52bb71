// Argument checking shared by MaxPool2d and AvgPool2d. SPDX-License-Identifier: MIT
#pragma once

#include "nn/layers/layer_args.h"
#include "ops/nn_ops.h"

#include <string>

namespace gradstep {

/// kernel and stride >= 1, pad_mode 'same' or 'valid' in any case (MindSpore upper-cases it);
/// ValueError naming `cell` otherwise.
Pool2dOptions makePool2dOptions(const std::string& cell, IntPair kernelSize, IntPair stride,
                                const std::string& padMode);
/// "kernel_size=(2, 2), stride=(2, 2), pad_mode=VALID".
std::string poolRepr(const Pool2dOptions& options);

} // namespace gradstep
