// nn.L1Loss. SPDX-License-Identifier: MIT
#include "nn/losses/l1_loss.h"

#include "ops/elementwise.h"

namespace gradstep {

Value L1Loss::construct(const std::vector<Value>& args)
{
    return getLoss(abs(sub(tensorArg(args, 0, 2), tensorArg(args, 1, 2))));
}

} // namespace gradstep
