// nn.MSELoss. SPDX-License-Identifier: MIT
#include "nn/losses/mse_loss.h"

#include "ops/elementwise.h"

namespace gradstep {

Value MSELoss::construct(const std::vector<Value>& args)
{
    return getLoss(square(sub(tensorArg(args, 0, 2), tensorArg(args, 1, 2))));
}

} // namespace gradstep
