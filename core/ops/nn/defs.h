// The nn op definitions, for the registry. SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

namespace gradstep {

extern const OpDef kMatMul;
extern const OpDef kBatchMatMul;
extern const OpDef kBiasAdd;
extern const OpDef kConv2D;
extern const OpDef kConv2DBackpropInput;
extern const OpDef kConv2DBackpropFilter;
extern const OpDef kConv2DWithCols;
extern const OpDef kIm2Col;
extern const OpDef kCol2Im;
extern const OpDef kConv2DFromCols;
extern const OpDef kConv2DBackpropFilterFromCols;
extern const OpDef kMaxPool;
extern const OpDef kMaxPoolGrad;
extern const OpDef kMaxPoolGradGrad;
extern const OpDef kMaxPoolReluGrad;
extern const OpDef kAvgPool;
extern const OpDef kAvgPoolGrad;
extern const OpDef kSoftmax;
extern const OpDef kLogSoftmax;
extern const OpDef kDropout;
extern const OpDef kSparseSoftmaxCrossEntropyWithLogits;
extern const OpDef kSoftmaxCrossEntropyWithLogits;
extern const OpDef kApplyGradientDescent;

} // namespace gradstep
