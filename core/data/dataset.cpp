// Data set sources, column lookup and the shuffle seed. SPDX-License-Identifier: MIT
#include "data/dataset.h"

#include "data/order_cursor.h"
#include "random/generator.h"
#include "random/splitmix.h"

#include <algorithm>
#include <mutex>
#include <numeric>
#include <random>
#include <utility>

namespace gradstep::data {

namespace {

struct SeedState {
    std::mutex mutex;
    std::optional<std::uint64_t> seed;
};

SeedState& seedState()
{
    static SeedState state;
    return state;
}


class RandomAccessDataset : public Dataset {
public:
    RandomAccessDataset(std::shared_ptr<const RowSource> source, std::vector<std::string> columns, bool shuffle,
                        std::optional<std::int64_t> numSamples)
        : m_source(std::move(source)), m_columns(std::move(columns)), m_shuffle(shuffle), m_numSamples(numSamples)
    {
    }
    std::vector<std::string> columnNames() const override { return m_columns; }
    std::optional<std::int64_t> knownSize() const override
    {
        return m_numSamples ? std::min(*m_numSamples, m_source->size()) : m_source->size();
    }
    std::unique_ptr<Cursor> open(std::int64_t epoch) const override
    {
        std::vector<std::int64_t> order = rowOrder(m_source->size(), m_shuffle, m_shuffle ? shuffleSeed(epoch) : 0);
        order.resize(static_cast<std::size_t>(*knownSize()));
        return std::make_unique<OrderCursor>(m_source, std::move(order), m_sampleSource);
    }

private:
    std::shared_ptr<const RowSource> m_source;
    std::vector<std::string> m_columns;
    std::int64_t m_sampleSource = registerSampleSource(m_columns); ///< after m_columns
    bool m_shuffle;
    std::optional<std::int64_t> m_numSamples;
};

} // namespace

std::int64_t datasetSize(const Dataset& dataset)
{
    if (auto size = dataset.knownSize())
        return *size;
    std::int64_t count = 0;
    auto cursor = dataset.open(0);
    while (cursor->next())
        ++count;
    return count;
}

std::size_t columnIndex(const std::vector<std::string>& columns, const std::string& name, const char* op)
{
    const auto found = std::find(columns.begin(), columns.end(), name);
    if (found != columns.end())
        return static_cast<std::size_t>(found - columns.begin());
    std::string known;
    for (const auto& column : columns)
        known += (known.empty() ? "'" : ", '") + column + "'";
    throw ValueError(std::string(op) + ": column '" + name + "' does not exist; the columns are [" + known + "]");
}

Table::Table(std::vector<Array> columns) : m_columns(std::move(columns))
{
    for (std::size_t c = 0; c < m_columns.size(); ++c) {
        const Shape& shape = m_columns[c].shape();
        if (shape.rank() == 0)
            throw ValueError("column " + std::to_string(c) + " is a scalar; each column needs one row per entry "
                             "of its first axis");
        if (c == 0)
            m_size = shape[0];
        else if (shape[0] != m_size)
            throw ValueError("columns have different numbers of rows: column 0 has " + std::to_string(m_size)
                             + ", column " + std::to_string(c) + " has " + std::to_string(shape[0]));
    }
}

Row Table::row(std::int64_t index) const
{
    Row row;
    row.reserve(m_columns.size());
    for (const Array& column : m_columns)
        row.push_back(column.slice(index));
    return row;
}

DatasetPtr randomAccess(std::shared_ptr<const RowSource> source, std::vector<std::string> columns, bool shuffle,
                        std::optional<std::int64_t> numSamples)
{
    if (numSamples && *numSamples < 0)
        throw ValueError("num_samples must be non-negative, got " + std::to_string(*numSamples));
    return std::make_shared<RandomAccessDataset>(std::move(source), std::move(columns), shuffle, numSamples);
}

void setSeed(std::uint64_t seed)
{
    std::lock_guard lock(seedState().mutex);
    seedState().seed = seed;
}

void clearSeed()
{
    std::lock_guard lock(seedState().mutex);
    seedState().seed.reset();
}

std::optional<std::uint64_t> seed()
{
    std::lock_guard lock(seedState().mutex);
    return seedState().seed;
}

std::uint64_t shuffleSeed(std::int64_t epoch)
{
    if (const auto configured = seed())
        return splitMix64(*configured ^ splitMix64(static_cast<std::uint64_t>(epoch)));
    std::random_device device;
    return static_cast<std::uint64_t>(device()) << 32 | device();
}

} // namespace gradstep::data
