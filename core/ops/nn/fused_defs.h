// The fused nn op definitions (a layer's forward or backward as one kernel and one node), for the
// registry. Apart from defs.h so adding one does not rebuild every nn op.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

#include <initializer_list>

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

/// Shape checks an op shares with its gradient op: x (N, C, ...) with num_groups dividing C and
/// input gammaInput of shape (C,) (GroupNorm); channel-shaped inputs (C,) of x = input xInput,
/// every input of x's float dtype (BatchNorm).
void checkGroupNormShapes(const OpCall& call, std::size_t gammaInput);

/// Calls a norm-gradient op: MindSpore's five inputs, plus the statistics' cotangents (zeros for
/// the missing one) only when either is defined, so an ordinary backward node shows five.
OutputList callNormGrad(const OpDef& op, std::initializer_list<Tensor> five, const Tensor& mean,
                        const Tensor& variance, const Tensor& dmean, const Tensor& dvariance, const Attrs& attrs);
void checkBatchNormShapes(const OpCall& call, std::initializer_list<std::size_t> channelInputs, std::size_t xInput);

} // namespace gradstep
