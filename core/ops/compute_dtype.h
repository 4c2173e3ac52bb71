// Ops on storage dtypes (Int8, UInt16, Float16, BFloat16, ...): kernels exist only for the five
// compute dtypes, so a call with any other dtype runs the kernel on inputs widened to their
// compute dtype and rounds or wraps each output back to the dtype the op's rule gave it, as
// MindSpore's CPU kernels do for float16 (compute in float32, round once per op).
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

namespace gradstep {

/// Runs call.op's kernel into `outputs` (preallocated with the rule's specs, or undefined for
/// ops that allocate their own). Compute dtypes go straight to the kernel; anything else is
/// widened and narrowed back. Eager dispatch, the graph executor and constant folding share it.
void runKernel(const OpCall& call, std::span<Tensor> outputs);

/// Throws the TypeError an op gives for an input dtype its kernels cannot compute exactly
/// (UInt64 in ops whose result depends on signedness).
void checkStorageDTypes(const OpCall& call);

} // namespace gradstep
