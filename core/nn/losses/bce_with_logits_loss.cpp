// nn.BCEWithLogitsLoss. SPDX-License-Identifier: MIT
#include "nn/losses/bce_with_logits_loss.h"

#include "ops/nn_ops.h"

namespace gradstep {

Value BCEWithLogitsLoss::construct(const std::vector<Value>& args)
{
    return bceWithLogits(tensorArg(args, 0, 2), tensorArg(args, 1, 2), m_weight, m_posWeight, reduction());
}

} // namespace gradstep
