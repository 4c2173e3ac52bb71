// Registers the reduction ops. SPDX-License-Identifier: MIT
#include "ops/reduction/defs.h"
#include "ops/registry.h"

namespace gradstep {

void registerReductionOps(OpRegistry& registry)
{
    for (const OpDef* op : {&kReduceSum, &kReduceMean, &kReduceMax, &kReduceMin, &kArgmax, &kArgmin, &kNorm})
        registry.add(*op);
}

} // namespace gradstep
