// The reduction op definitions, for the registry. SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

namespace gradstep {

extern const OpDef kReduceSum;
extern const OpDef kReduceMean;
extern const OpDef kReduceMax;
extern const OpDef kReduceMin;
extern const OpDef kArgmax;
extern const OpDef kArgmin;
extern const OpDef kNorm;

} // namespace gradstep
