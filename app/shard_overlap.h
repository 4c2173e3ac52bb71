// The shard-overlap watchpoint of `gradstep run --ranks N --watch shard-overlap`: before each
// training step, the rows every rank read from its random-access data sets since the previous
// step (data/sample_log.h: the sample ids) are gathered on rank 0; a row read by two ranks in one
// step, which a data set sharded with num_shards / shard_id never gives, stops every rank, named
// with the step, the two ranks and the sample. Data sets without row indices (a Python generator
// or iterable) are not seen. SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gradstep::app {

class ShardOverlapWatch {
public:
    /// Starts the sample log.
    ShardOverlapWatch();
    /// Stops it.
    ~ShardOverlapWatch();
    ShardOverlapWatch(const ShardOverlapWatch&) = delete;
    ShardOverlapWatch& operator=(const ShardOverlapWatch&) = delete;

    /// Called by every rank as training step `step` begins (it runs collectives): the finding when
    /// two ranks read the same sample for this step.
    std::optional<std::string> check(std::int64_t step);
};

} // namespace gradstep::app
