// The collective op definitions and what their kernels share. SPDX-License-Identifier: MIT
#pragma once

#include "dist/communicator.h"
#include "ops/op_def.h"

#include <string>

namespace gradstep {

extern const OpDef kAllReduce;
extern const OpDef kAllGather;
extern const OpDef kReduceScatter;
extern const OpDef kBroadcast;
extern const OpDef kAlltoAll;

namespace collective {

/// The dtypes the collectives move: every real dtype MPI has a type for, and Float16 (reduced in
/// float32). Anything else is MindSpore's TypeError naming the op.
dist::ElementType elementType(const OpCall& call, DType dtype);
/// The op attribute: "sum", "max", "min" or "prod"; ValueError otherwise.
dist::ReduceOp reduceOp(const OpCall& call);
/// The group attribute (the world by default).
std::string group(const Attrs& attrs);
/// Ranks in the call's group.
std::int64_t groupSize(const OpCall& call);
/// Reduces x over the group into out, widening Float16 to float32 around the reduction.
void reduceInto(const OpCall& call, const Tensor& x, Tensor& out, bool scatter);

} // namespace collective

} // namespace gradstep
