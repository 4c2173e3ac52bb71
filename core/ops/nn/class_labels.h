// Class-index labels of the sparse cross-entropy ops, read and range-checked once per call.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

#include <cstdint>
#include <vector>

namespace gradstep {

/// call.input(1) (Int32 or Int64) as int64 values; IndexError naming the label and its sample
/// unless each is in [0, C), C = call.input(0).shape()[1].
std::vector<std::int64_t> readClassLabels(const OpCall& call);

} // namespace gradstep
