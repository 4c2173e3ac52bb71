// The fused nn op definitions (a layer's forward or backward as one kernel and one node), for the
// registry. Apart from defs.h so adding one does not rebuild every nn op.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

namespace gradstep {

extern const OpDef kSoftmaxGrad;
extern const OpDef kLogSoftmaxGrad;
extern const OpDef kSparseSoftmaxCrossEntropyWithLogitsGrad;
extern const OpDef kLayerNorm;
extern const OpDef kLayerNormGrad;
extern const OpDef kGroupNorm;
extern const OpDef kGroupNormGrad;
extern const OpDef kBatchNorm;
extern const OpDef kBatchNormGrad;
extern const OpDef kSiLU;
extern const OpDef kSiLUGrad;

} // namespace gradstep
