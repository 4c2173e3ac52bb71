// Sharding a random-access data set between the ranks of a data-parallel run (num_shards /
// shard_id, DistributedSampler), as MindSpore's DistributedSampler: every shard gets
// ceil(rows / num_shards) rows, shard k the rows at positions k, k + num_shards, ... of the
// epoch's order, wrapping around to the first rows when the rows do not divide evenly.
// SPDX-License-Identifier: MIT
#pragma once

#include "data/dataset.h"

namespace gradstep::data {

struct Shard {
    std::int64_t count = 1; ///< num_shards
    std::int64_t index = 0; ///< shard_id
};

/// ValueError in MindSpore's words unless 1 <= count and 0 <= index < count.
void checkShard(const Shard& shard, const char* source);

/// The rows of `source` that belong to `shard`; with `shuffle`, taken from one order per epoch
/// that every shard draws alike (the configured seed, else a fixed one, so shards never overlap);
/// at most numSamples per shard.
DatasetPtr shardedRandomAccess(std::shared_ptr<const RowSource> source, std::vector<std::string> columns,
                               bool shuffle, std::optional<std::int64_t> numSamples, Shard shard);

} // namespace gradstep::data
