// A cursor over a random-access source in a given order of row indices (a shuffle, a shard), and
// the shuffled order itself. SPDX-License-Identifier: MIT
#pragma once

#include "data/dataset.h"
#include "data/sample_log.h"
#include "random/generator.h"

#include <numeric>
#include <memory>
#include <utility>
#include <vector>

namespace gradstep::data {

class OrderCursor : public Cursor {
public:
    /// `sampleSource`: the source's number in the sample log (registerSampleSource).
    OrderCursor(std::shared_ptr<const RowSource> source, std::vector<std::int64_t> order, std::int64_t sampleSource)
        : m_source(std::move(source)), m_order(std::move(order)), m_sampleSource(sampleSource)
    {
    }
    std::optional<Row> next() override
    {
        if (m_position == m_order.size())
            return std::nullopt;
        const std::int64_t row = m_order[m_position++];
        logSample(m_sampleSource, row);
        return m_source->row(row);
    }

private:
    std::shared_ptr<const RowSource> m_source;
    std::vector<std::int64_t> m_order;
    std::int64_t m_sampleSource;
    std::size_t m_position = 0;
};

/// Rows 0..rows-1, Fisher-Yates shuffled with `seed` when `shuffle` (our own draws:
/// std::shuffle's algorithm differs between standard libraries).
inline std::vector<std::int64_t> rowOrder(std::int64_t rows, bool shuffle, std::uint64_t seed)
{
    std::vector<std::int64_t> order(static_cast<std::size_t>(rows));
    std::iota(order.begin(), order.end(), 0);
    if (shuffle) {
        Generator generator(seed);
        for (std::size_t i = order.size(); i > 1; --i)
            std::swap(order[i - 1], order[generator.next() % i]);
    }
    return order;
}

} // namespace gradstep::data
