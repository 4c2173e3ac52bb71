// nn.MSELoss. SPDX-License-Identifier: MIT
#include "nn/losses/mse_loss.h"

#include "ops/nn_ops.h"

namespace gradstep {

Value MSELoss::construct(const std::vector<Value>& args)
{
    return mseLoss(tensorArg(args, 0, 2), tensorArg(args, 1, 2), reduction());
}

} // namespace gradstep
