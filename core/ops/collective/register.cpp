// Registers the collective ops. SPDX-License-Identifier: MIT
#include "ops/collective/defs.h"
#include "ops/collective_ops.h"
#include "ops/registry.h"

namespace gradstep {

void registerCollectiveOps(OpRegistry& registry)
{
    for (const OpDef* op : {&kAllReduce, &kAllGather, &kReduceScatter, &kBroadcast, &kAlltoAll})
        registry.add(*op);
}

} // namespace gradstep
