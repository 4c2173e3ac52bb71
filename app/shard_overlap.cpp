// shard-overlap. Like ranks-diverge, its collectives go through core/dist directly, so they do not
// show in the script's graph. SPDX-License-Identifier: MIT
#include "app/shard_overlap.h"

#include "data/sample_log.h"
#include "dist/communicator.h"

#include <array>
#include <map>

namespace gradstep::app {

namespace {

// A sample as one exact double: source * 2^32 + row (sources and rows both stay far below 2^21 and
// 2^32, inside a double's 53 bits).
constexpr double kRowsPerSource = 4294967296.0;

double encode(const data::SampleRead& read)
{
    return static_cast<double>(read.source) * kRowsPerSource + static_cast<double>(read.row);
}

} // namespace

ShardOverlapWatch::ShardOverlapWatch()
{
    data::enableSampleLog(true);
}

ShardOverlapWatch::~ShardOverlapWatch()
{
    data::enableSampleLog(false);
}

std::optional<std::string> ShardOverlapWatch::check(std::int64_t step)
{
    const std::vector<data::SampleRead> reads = data::takeSampleLog();
    if (!dist::usesMpi())
        return std::nullopt;
    std::vector<double> mine;
    mine.reserve(reads.size());
    for (const data::SampleRead& read : reads)
        mine.push_back(encode(read));
    const std::vector<std::vector<double>> all = dist::gatherToRoot(mine);
    // Rank 0 finds the first sample (in rank 0's order, then rank 1's, ...) that a lower rank
    // read too: [found, first rank, second rank, source, row].
    std::array<std::int64_t, 5> finding{0, 0, 0, 0, 0};
    if (!all.empty()) {
        std::map<double, int> firstReader;
        for (std::size_t r = 0; r < all.size() && finding[0] == 0; ++r) {
            for (double id : all[r]) {
                const auto [at, inserted] = firstReader.emplace(id, static_cast<int>(r));
                if (!inserted && at->second != static_cast<int>(r)) {
                    const auto source = static_cast<std::int64_t>(id / kRowsPerSource);
                    finding = {1, at->second, static_cast<std::int64_t>(r), source,
                               static_cast<std::int64_t>(id - static_cast<double>(source) * kRowsPerSource)};
                    break;
                }
            }
        }
    }
    dist::broadcast(finding.data(), static_cast<std::int64_t>(finding.size()), dist::ElementType::Int64, 0,
                    "hccl_world_group", "shard-overlap");
    if (finding[0] == 0)
        return std::nullopt;
    return "shard-overlap: in step " + std::to_string(step) + ", ranks " + std::to_string(finding[1]) + " and "
           + std::to_string(finding[2]) + " both received sample " + std::to_string(finding[4]) + " (row "
           + std::to_string(finding[4]) + " of " + data::sampleSourceName(finding[3])
           + "): the data set is not sharded between the ranks; give it num_shards=get_group_size() and "
             "shard_id=get_rank() (or a DistributedSampler)\n";
}

} // namespace gradstep::app
