// nn.Tanh. SPDX-License-Identifier: MIT
#include "nn/layers/tanh.h"

#include "ops/elementwise.h"

namespace gradstep {

Value Tanh::construct(const std::vector<Value>& args) { return tanh(tensorArg(args, 0, 1)); }

} // namespace gradstep
