// mse_loss: nn.MSELoss as MindSpore builds it, a composite of ops (no primitive of its own):
//   loss = reduce((prediction - target)^2)      reduce = mean | sum | none over every element
//   dL/dprediction = 2 (prediction - target) G (/ numel for mean), dL/dtarget = the negative
// through Sub and Square; prediction and target broadcast. NaN propagates.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/nn/common.h"
#include "ops/nn_ops.h"

namespace gradstep {

Tensor mseLoss(const Tensor& prediction, const Tensor& target, const std::string& reduction)
{
    checkReduction(reduction, "MSELoss");
    return applyReduction(square(sub(prediction, target)), reduction);
}

} // namespace gradstep
