// The known differences between PyTorch and MindSpore that make a faithful-looking port compute
// something else, looked up by the arguments on both sides (MindSpore's PyTorch API mapping pages,
// "pytorch_diff", list them; the texts here are ours). SPDX-License-Identifier: MIT
#pragma once

#include "io/json.h"

#include <string>
#include <vector>

namespace gradstep::migrate {

/// Why a module and its Cell differ: one sentence per differing argument, naming it with its
/// value on both sides ("padding=0 in PyTorch's Conv2d vs pad_mode='same' in MindSpore's
/// Conv2d (MindSpore's default)"). Entries are a capture's "modules" items; empty when no known
/// pitfall applies.
std::vector<std::string> modulePitfalls(const Json* torchModule, const Json* msModule);

/// The loss functions' arguments (capture "loss" entries: {"class", "args"}).
std::vector<std::string> lossPitfalls(const Json* torchLoss, const Json* msLoss);

/// The optimizers' arguments and definitions (capture "optimizer" entries).
std::vector<std::string> optimizerPitfalls(const Json* torchOptimizer, const Json* msOptimizer);

/// What the port fed its network before PyTorch's batch replaced it (the MindSpore capture's
/// "inputs"): float64 from NumPy, NHWC instead of NCHW.
std::vector<std::string> inputPitfalls(const Json* msInputs);

/// The initialiser each side uses for a parameter of this module when weights are not copied
/// ("kaiming_uniform(a=sqrt(5))", "HeUniform(negative_slope=sqrt(5))", ...).
std::string torchInitialiser(const std::string& torchClass, const std::string& attr);
std::string msInitialiser(const Json* msModule, const std::string& attr);

} // namespace gradstep::migrate
