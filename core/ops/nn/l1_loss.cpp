// l1_loss: nn.L1Loss as MindSpore builds it, a composite of ops (no primitive of its own):
//   loss = reduce(|prediction - target|)        reduce = mean | sum | none over every element
//   dL/dprediction = sign(prediction - target) G (/ numel for mean): 0 where they are equal
// through Sub and Abs; prediction and target broadcast. NaN propagates.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/nn/common.h"
#include "ops/nn_ops.h"

namespace gradstep {

Tensor l1Loss(const Tensor& prediction, const Tensor& target, const std::string& reduction)
{
    checkReduction(reduction, "L1Loss");
    return applyReduction(abs(sub(prediction, target)), reduction);
}

} // namespace gradstep
