// Float16 elementwise ops in blocks: widening a whole tensor to float32, computing and rounding
// it back makes three passes over memory the size of the float32 tensor; in blocks that stay in
// the cache the same float32 kernel runs on the same float32 values, so the result is the same
// bits (each element is still computed in float32 and rounded once) at a fraction of the cost.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

namespace gradstep {

/// Runs call (an elementwise op whose inputs and outputs are all Float16 tensors of one shape)
/// block by block and returns true; returns false, having done nothing, for any other call.
bool runHalfElementwiseInBlocks(const OpCall& call, std::span<Tensor> outputs);

} // namespace gradstep
