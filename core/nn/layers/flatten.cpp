// nn.Flatten. SPDX-License-Identifier: MIT
#include "nn/layers/flatten.h"

#include "ops/shape_ops.h"

namespace gradstep {

Value Flatten::construct(const std::vector<Value>& args) { return flatten(tensorArg(args, 0, 1)); }

} // namespace gradstep
