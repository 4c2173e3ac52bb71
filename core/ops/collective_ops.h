// The collective ops of data-parallel training (MindSpore's AllReduce, AllGather, ReduceScatter,
// Broadcast, AlltoAll): registry ops like any other, so the debugger records them as nodes and
// the graph shows them, with MindSpore's bprops as backward rules. They move data between the
// ranks through core/dist. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <cstdint>
#include <string>

namespace gradstep {

class OpRegistry;

/// MindSpore's world group name, the default of every collective.
inline constexpr const char* kWorldGroup = "hccl_world_group";

/// y = op over the ranks of x (op: "sum", "max", "min" or "prod"), on every rank.
Tensor allReduce(const Tensor& x, const std::string& op = "sum", const std::string& group = kWorldGroup);
/// The ranks' x concatenated along axis 0, rank order.
Tensor allGather(const Tensor& x, const std::string& group = kWorldGroup);
/// x's axis 0 cut into one block per rank; rank r gets op over the ranks of block r.
Tensor reduceScatter(const Tensor& x, const std::string& op = "sum", const std::string& group = kWorldGroup);
/// The root rank's x on every rank.
Tensor broadcast(const Tensor& x, std::int64_t rootRank, const std::string& group = kWorldGroup);
/// x cut along splitDim into splitCount blocks, block r sent to rank r; the blocks received are
/// concatenated along concatDim.
Tensor allToAll(const Tensor& x, std::int64_t splitCount, std::int64_t splitDim, std::int64_t concatDim,
                const std::string& group = kWorldGroup);

void registerCollectiveOps(OpRegistry& registry);

} // namespace gradstep
