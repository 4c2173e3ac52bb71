// The table of graph passes. SPDX-License-Identifier: MIT
#include "passes/pass.h"

namespace gradstep {

const std::vector<const PassInfo*>& passRegistry()
{
    static const std::vector<const PassInfo*> passes{
        &kConstantFoldPass,       &kAlgebraicSimplifyPass, &kCsePass,
        &kDcePass,                &kPoolReluGradFusionPass, &kPoolBeforeReluPass,
        &kConvColsReusePass,      &kElementwiseFusionPass, &kBufferReusePass};
    return passes;
}

const PassInfo* findPass(std::string_view name)
{
    for (const PassInfo* pass : passRegistry())
        if (pass->name == name)
            return pass;
    return nullptr;
}

bool hasSideEffects(const OpDef& op)
{
    // OpDef has no purity flag; the random ops are few enough to list here.
    return op.name == "Dropout" || op.name == "Dropout2D" || op.name == "UniformReal"
           || op.name == "StandardNormal";
}

} // namespace gradstep
