// Registers the shape ops. SPDX-License-Identifier: MIT
#include "ops/registry.h"
#include "ops/shape/defs.h"

namespace gradstep {

void registerShapeOps(OpRegistry& registry)
{
    for (const OpDef* op : {&kReshape, &kBroadcastTo, &kTranspose, &kExpandDims, &kSqueeze, &kFlatten, &kConcat,
                            &kStack, &kSplit, &kStridedSlice, &kStridedSliceGrad, &kGather, &kUnsortedSegmentSum,
                            &kOneHot, &kTile, &kZerosLike, &kOnesLike, &kFill})
        registry.add(*op);
}

} // namespace gradstep
