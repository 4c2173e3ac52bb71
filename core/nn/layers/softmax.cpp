// nn.Softmax. SPDX-License-Identifier: MIT
#include "nn/layers/softmax.h"

#include "ops/nn_ops.h"

namespace gradstep {

Value Softmax::construct(const std::vector<Value>& args)
{
    return softmax(tensorArg(args, 0, 1), m_axis);
}

} // namespace gradstep
