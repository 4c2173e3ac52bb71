// bce_with_logits: binary cross-entropy of logits x against targets t in [0, 1], a composite:
//   loss = reduce(softplus(x) - x t) = reduce(max(x, 0) - x t + log(1 + exp(-|x|)))
// (Softplus evaluates exactly that stable form: no exp overflows for any x.)
//   dL/dx = (sigmoid(x) - t) G,  dL/dt = -x G    (/ numel for mean), smooth everywhere
// reduce = mean | sum | none over every element; x and t broadcast. NaN propagates.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/nn/common.h"
#include "ops/nn_ops.h"

namespace gradstep {

Tensor bceWithLogits(const Tensor& logits, const Tensor& target, const std::string& reduction)
{
    checkReduction(reduction, "BCEWithLogitsLoss");
    return applyReduction(sub(softplus(logits), mul(logits, target)), reduction);
}

} // namespace gradstep
