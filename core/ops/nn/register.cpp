// Registers the nn ops. SPDX-License-Identifier: MIT
#include "ops/nn/defs.h"
#include "ops/registry.h"

namespace gradstep {

void registerNnOps(OpRegistry& registry)
{
    for (const OpDef* op : std::initializer_list<const OpDef*>{})
        registry.add(*op);
}

} // namespace gradstep
