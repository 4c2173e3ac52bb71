// Registers the nn ops. SPDX-License-Identifier: MIT
#include "ops/nn/defs.h"
#include "ops/nn/fused_defs.h"
#include "ops/registry.h"

namespace gradstep {

void registerNnOps(OpRegistry& registry)
{
    for (const OpDef* op : {&kMatMul, &kBatchMatMul, &kBiasAdd, &kConv2D, &kConv2DBackpropInput,
                            &kConv2DBackpropFilter, &kConv2DWithCols, &kIm2Col, &kCol2Im, &kConv2DFromCols,
                            &kConv2DBackpropFilterFromCols, &kMaxPool, &kMaxPoolGrad, &kMaxPoolGradGrad, &kMaxPoolReluGrad,
                            &kAvgPool, &kAvgPoolGrad, &kSoftmax, &kLogSoftmax, &kDropout,
                            &kSparseSoftmaxCrossEntropyWithLogits, &kSoftmaxCrossEntropyWithLogits,
                            &kApplyGradientDescent})
        registry.add(*op);
    for (const OpDef* op : {&kSoftmaxGrad, &kLogSoftmaxGrad, &kSparseSoftmaxCrossEntropyWithLogitsGrad, &kLayerNorm,
                            &kLayerNormGrad, &kGroupNorm, &kGroupNormGrad, &kBatchNorm, &kBatchNormGrad, &kSiLU,
                            &kSiLUGrad})
        registry.add(*op);
}

} // namespace gradstep
