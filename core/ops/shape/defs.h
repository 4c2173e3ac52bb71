// The shape op definitions, for the registry. SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

namespace gradstep {

extern const OpDef kReshape;
extern const OpDef kBroadcastTo;

} // namespace gradstep
