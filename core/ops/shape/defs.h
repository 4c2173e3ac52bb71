// The shape op definitions, for the registry. SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

namespace gradstep {

extern const OpDef kReshape;
extern const OpDef kBroadcastTo;
extern const OpDef kTranspose;
extern const OpDef kExpandDims;
extern const OpDef kSqueeze;
extern const OpDef kFlatten;
extern const OpDef kConcat;
extern const OpDef kStack;
extern const OpDef kSplit;
extern const OpDef kStridedSlice;
extern const OpDef kStridedSliceGrad;
extern const OpDef kGather;
extern const OpDef kUnsortedSegmentSum;
extern const OpDef kOneHot;
extern const OpDef kTile;
extern const OpDef kZerosLike;
extern const OpDef kOnesLike;
extern const OpDef kFill;

} // namespace gradstep
