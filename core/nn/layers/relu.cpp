// nn.ReLU. SPDX-License-Identifier: MIT
#include "nn/layers/relu.h"

#include "ops/elementwise.h"

namespace gradstep {

Value ReLU::construct(const std::vector<Value>& args) { return relu(tensorArg(args, 0, 1)); }

} // namespace gradstep
