// A functional call a module's own code made (a capture's "calls" entry, Note [Functional calls]
// in core/migrate/capture.h): its arguments by position or name, and the call as its script
// wrote it, so an explanation quotes both sides. SPDX-License-Identifier: MIT
#pragma once

#include "io/json.h"

#include <optional>
#include <string>

namespace gradstep::migrate {

/// The function without its namespace: "split" for torch.split, Tensor.split and ops.split;
/// "Split" for the primitive ops.Split; "vector_norm" for torch.linalg.vector_norm.
std::string callFunction(const Json& call);

/// The argument given at `position` (0 is the input tensor, also for a Tensor method's self) or
/// by `name`; for a primitive also its constructor attribute `name`. Null when not given.
const Json* callArgument(const Json& call, std::size_t position, const std::string& name);

/// A recorded value as Python shows it: 2, 0.5, 'tanh', True, None, (1, 2); a tensor as "tensor"
/// (a 0-d tensor as its value).
std::string callValueText(const Json& value);

/// The value as a number (a 0-d tensor's value too); nullopt otherwise.
std::optional<double> callNumber(const Json* value);

/// "torch.split(x, 2, dim=1)", "x.clamp(max=6.0)", "ops.Split(axis=1, output_num=2)(x)".
std::string callText(const Json& call);

} // namespace gradstep::migrate
