// The autodiff op definitions, for the registry. SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

namespace gradstep {

extern const OpDef kStopGradient;
extern const OpDef kIdentity;

} // namespace gradstep
