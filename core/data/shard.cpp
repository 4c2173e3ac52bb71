// Sharded random access. SPDX-License-Identifier: MIT
#include "data/shard.h"

#include "data/order_cursor.h"
#include "random/generator.h"
#include "tensor/errors.h"

#include <algorithm>
#include <numeric>

namespace gradstep::data {

namespace {

// Every rank must draw the same order without a seed too, or shards would overlap: the fixed
// seed stands in for one (MindSpore's ranks agree through its default dataset seed).
constexpr std::uint64_t kUnseededShardSeed = 5489;

class ShardedDataset : public Dataset {
public:
    ShardedDataset(std::shared_ptr<const RowSource> source, std::vector<std::string> columns, bool shuffle,
                   std::optional<std::int64_t> numSamples, Shard shard)
        : m_source(std::move(source)), m_columns(std::move(columns)), m_shuffle(shuffle), m_numSamples(numSamples),
          m_shard(shard)
    {
    }
    std::vector<std::string> columnNames() const override { return m_columns; }
    std::optional<std::int64_t> knownSize() const override
    {
        const std::int64_t rows = m_source->size();
        const std::int64_t perShard = rows == 0 ? 0 : (rows + m_shard.count - 1) / m_shard.count;
        return m_numSamples ? std::min(*m_numSamples, perShard) : perShard;
    }
    std::unique_ptr<Cursor> open(std::int64_t epoch) const override
    {
        const std::int64_t rows = m_source->size();
        const std::uint64_t seed =
            !m_shuffle ? 0 : data::seed() ? shuffleSeed(epoch) : kUnseededShardSeed + static_cast<std::uint64_t>(epoch);
        const std::vector<std::int64_t> all = rowOrder(rows, m_shuffle, seed);
        std::vector<std::int64_t> order;
        const std::int64_t take = *knownSize();
        for (std::int64_t i = 0; i < take; ++i)
            order.push_back(all[static_cast<std::size_t>((m_shard.index + i * m_shard.count) % rows)]);
        return std::make_unique<OrderCursor>(m_source, std::move(order), m_sampleSource);
    }

private:
    std::shared_ptr<const RowSource> m_source;
    std::vector<std::string> m_columns;
    std::int64_t m_sampleSource = registerSampleSource(m_columns); ///< after m_columns
    bool m_shuffle;
    std::optional<std::int64_t> m_numSamples;
    Shard m_shard;
};

} // namespace

void checkShard(const Shard& shard, const char* source)
{
    if (shard.count < 1)
        throw ValueError(std::string(source) + ": Input num_shards is not within the required interval of [1, 2147483647].");
    if (shard.index < 0 || shard.index >= shard.count)
        throw ValueError(std::string(source) + ": Input shard_id is not within the required interval of [0, "
                         + std::to_string(shard.count - 1) + "].");
}

DatasetPtr shardedRandomAccess(std::shared_ptr<const RowSource> source, std::vector<std::string> columns,
                               bool shuffle, std::optional<std::int64_t> numSamples, Shard shard)
{
    checkShard(shard, "DistributedSampler");
    if (numSamples && *numSamples < 0)
        throw ValueError("num_samples must be non-negative, got " + std::to_string(*numSamples));
    return std::make_shared<ShardedDataset>(std::move(source), std::move(columns), shuffle, numSamples, shard);
}

} // namespace gradstep::data
