// nn.L1Loss. SPDX-License-Identifier: MIT
#include "nn/losses/l1_loss.h"

#include "ops/nn_ops.h"

namespace gradstep {

Value L1Loss::construct(const std::vector<Value>& args)
{
    return l1Loss(tensorArg(args, 0, 2), tensorArg(args, 1, 2), reduction());
}

} // namespace gradstep
