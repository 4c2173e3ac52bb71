// bce_with_logits: binary cross-entropy of logits x against targets t in [0, 1], a composite:
//   loss = reduce(softplus(x) - x t) = reduce(max(x, 0) - x t + log(1 + exp(-|x|)))
// (Softplus evaluates exactly that stable form: no exp overflows for any x.)
//   dL/dx = (sigmoid(x) - t) G,  dL/dt = -x G    (/ numel for mean), smooth everywhere
// reduce = mean | sum | none over every element; x and t broadcast. NaN propagates.
// With a positive-class weight p the same stable form becomes
//   (1 - t) x + (1 + (p - 1) t) softplus(-x)
// (p = 1 gives the line above, since softplus(x) = x + softplus(-x)); a weight w multiplies it.
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

Tensor bceWithLogits(const Tensor& logits, const Tensor& target, const Tensor& weight, const Tensor& posWeight,
                     const std::string& reduction)
{
    checkReduction(reduction, "BCEWithLogitsLoss");
    Tensor loss;
    if (posWeight.defined()) {
        const Tensor one = scalarLike(1.0, logits);
        const Tensor scale = add(one, mul(sub(posWeight, one), target));
        loss = add(mul(sub(one, target), logits), mul(scale, softplus(neg(logits))));
    } else {
        loss = sub(softplus(logits), mul(logits, target));
    }
    if (weight.defined())
        loss = mul(loss, weight);
    return applyReduction(loss, reduction);
}

} // namespace gradstep
