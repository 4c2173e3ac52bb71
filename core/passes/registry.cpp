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
    return op.random || op.writesInputs;
}

} // namespace gradstep
