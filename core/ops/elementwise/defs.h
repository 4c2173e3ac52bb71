// The elementwise op definitions, for the registry. SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

namespace gradstep {

extern const OpDef kAdd;
extern const OpDef kMul;
extern const OpDef kNeg;
extern const OpDef kCast;

} // namespace gradstep
