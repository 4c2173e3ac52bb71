// nn.Sigmoid. SPDX-License-Identifier: MIT
#include "nn/layers/sigmoid.h"

#include "ops/elementwise.h"

namespace gradstep {

Value Sigmoid::construct(const std::vector<Value>& args) { return sigmoid(tensorArg(args, 0, 1)); }

} // namespace gradstep
