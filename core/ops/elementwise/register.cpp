// Registers the elementwise ops. SPDX-License-Identifier: MIT
#include "ops/elementwise/defs.h"
#include "ops/registry.h"

namespace gradstep {

void registerElementwiseOps(OpRegistry& registry)
{
    for (const OpDef* op : {&kAdd, &kMul, &kNeg, &kCast})
        registry.add(*op);
}

} // namespace gradstep
