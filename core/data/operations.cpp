// shuffle, batch, repeat and take over another data set. Each is a node forwarding the column
// names and sizes and a cursor pulling rows from its input's cursor. SPDX-License-Identifier: MIT
#include "data/dataset.h"
#include "data/pad.h"
#include "data/sample_log.h"

#include "random/generator.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>

namespace gradstep::data {

namespace {

/// A node over one input: names and batch size pass through unless overridden.
class Operation : public Dataset {
public:
    explicit Operation(DatasetPtr input) : m_input(std::move(input)) {}
    std::vector<std::string> columnNames() const override { return m_input->columnNames(); }
    std::int64_t batchSize() const override { return m_input->batchSize(); }

protected:
    DatasetPtr m_input;
};

class ShuffleCursor : public Cursor {
public:
    ShuffleCursor(std::unique_ptr<Cursor> input, std::int64_t bufferSize, std::uint64_t seed)
        : m_input(std::move(input)), m_generator(seed)
    {
        while (static_cast<std::int64_t>(m_buffer.size()) < bufferSize) {
            auto row = m_input->next();
            if (!row)
                break;
            m_buffer.push_back(std::move(*row));
        }
    }
    std::optional<Row> next() override
    {
        if (m_buffer.empty())
            return std::nullopt;
        const std::size_t pick = m_generator.next() % m_buffer.size();
        Row out = std::move(m_buffer[pick]);
        if (auto refill = m_input->next()) {
            m_buffer[pick] = std::move(*refill);
        } else {
            m_buffer[pick] = std::move(m_buffer.back());
            m_buffer.pop_back();
        }
        return out;
    }

private:
    std::unique_ptr<Cursor> m_input;
    Generator m_generator;
    std::vector<Row> m_buffer;
};

class ShuffleDataset : public Operation {
public:
    ShuffleDataset(DatasetPtr input, std::int64_t bufferSize) : Operation(std::move(input)), m_bufferSize(bufferSize) {}
    std::optional<std::int64_t> knownSize() const override { return m_input->knownSize(); }
    std::unique_ptr<Cursor> open(std::int64_t epoch) const override
    {
        return std::make_unique<ShuffleCursor>(m_input->open(epoch), m_bufferSize, shuffleSeed(epoch));
    }

private:
    std::int64_t m_bufferSize;
};

/// Stacks column `c` of `rows` along a new axis 0.
Array stackColumn(const std::vector<Row>& rows, std::size_t c, const std::string& name)
{
    const Array& first = rows.front()[c];
    for (std::size_t r = 1; r < rows.size(); ++r) {
        const Array& other = rows[r][c];
        if (!(other.shape() == first.shape()) || other.type() != first.type())
            throw ValueError("batch: column '" + name + "' cannot be stacked: row 0 of the batch is "
                             + describe(first) + " but row " + std::to_string(r) + " is " + describe(other)
                             + "; rows of one batch must have equal shapes and types (pad them in a map, or "
                             "use batch_size=1)");
    }
    Shape shape{static_cast<std::int64_t>(rows.size())};
    for (std::int64_t d : first.shape())
        shape.push_back(d);
    if (first.isString()) {
        std::vector<std::string> strings;
        strings.reserve(static_cast<std::size_t>(shape.numel()));
        for (const Row& row : rows)
            strings.insert(strings.end(), row[c].strings().begin(), row[c].strings().end());
        return {shape, std::move(strings)};
    }
    Array stacked(first.type(), shape);
    for (std::size_t r = 0; r < rows.size(); ++r)
        if (first.nbytes() > 0)
            std::memcpy(stacked.bytes() + r * first.nbytes(), rows[r][c].bytes(), first.nbytes());
    return stacked;
}

/// What per_batch_map does to a batch: which columns it takes and where its outputs go.
struct BatchMapping {
    std::shared_ptr<const BatchMap> map;
    std::vector<std::size_t> inputs;  ///< the input columns' indices
    std::vector<std::string> outputs; ///< the output columns' names
    std::vector<std::string> names;   ///< the batch's columns after the map
};

/// padded_batch's spec of each column (none: stacked as it is).
using ColumnPads = std::vector<std::optional<PadSpec>>;

class BatchCursor : public Cursor {
public:
    BatchCursor(std::unique_ptr<Cursor> input, std::int64_t size, bool dropRemainder, std::vector<std::string> names,
                std::shared_ptr<const BatchMapping> mapping, std::int64_t epoch,
                std::shared_ptr<const ColumnPads> pads = nullptr)
        : m_input(std::move(input)), m_size(size), m_dropRemainder(dropRemainder), m_names(std::move(names)),
          m_mapping(std::move(mapping)), m_epoch(epoch), m_pads(std::move(pads))
    {
    }
    std::optional<Row> next() override
    {
        const std::size_t mark = m_mapping && sampleLogEnabled() ? sampleLogSize() : 0;
        std::vector<Row> rows;
        while (static_cast<std::int64_t>(rows.size()) < m_size) {
            auto row = m_input->next();
            if (!row)
                break;
            rows.push_back(std::move(*row));
        }
        if (rows.empty() || (m_dropRemainder && static_cast<std::int64_t>(rows.size()) < m_size))
            return std::nullopt;
        if (m_mapping)
            return mapped(std::move(rows), mark);
        if (m_pads)
            pad(rows);
        Row out;
        for (std::size_t c = 0; c < rows.front().size(); ++c)
            out.push_back(stackColumn(rows, c, c < m_names.size() ? m_names[c] : std::to_string(c)));
        return out;
    }

private:
    void pad(std::vector<Row>& rows) const
    {
        for (std::size_t c = 0; c < m_pads->size(); ++c) {
            if (!(*m_pads)[c])
                continue;
            std::vector<Array> column;
            column.reserve(rows.size());
            for (Row& row : rows)
                column.push_back(std::move(row[c]));
            column = padColumn(column, *(*m_pads)[c], c < m_names.size() ? m_names[c] : std::to_string(c));
            for (std::size_t r = 0; r < rows.size(); ++r)
                rows[r][c] = std::move(column[r]);
        }
    }

    /// per_batch_map over the input columns, then every column stacked. `mark`: where the sample
    /// log stood before the batch's rows were read.
    Row mapped(std::vector<Row> rows, std::size_t mark)
    {
        std::vector<std::vector<Array>> columns(m_mapping->inputs.size());
        for (std::size_t i = 0; i < columns.size(); ++i)
            for (const Row& row : rows)
                columns[i].push_back(row[m_mapping->inputs[i]]);
        std::vector<std::vector<Array>> outputs = m_mapping->map->apply(std::move(columns), m_batch++, m_epoch);
        if (outputs.size() != m_mapping->outputs.size())
            throw ValueError("batch: per_batch_map returned " + std::to_string(outputs.size()) + " columns, but "
                             + std::to_string(m_mapping->outputs.size())
                             + " were expected (the number of output_columns, else of input_columns)");
        const std::size_t count = rows.size();
        const bool others = m_mapping->inputs.size() < rows.front().size();
        for (std::size_t o = 0; o < outputs.size(); ++o) {
            if (outputs[o].empty() || (o > 0 && outputs[o].size() != outputs[0].size())
                || (others && outputs[o].size() != count))
                throw ValueError("batch: per_batch_map returned " + std::to_string(outputs[o].size())
                                 + " rows for column '" + m_mapping->outputs[o] + "' but "
                                 + std::to_string(others || o == 0 ? count : outputs[0].size())
                                 + " for the others: every column of a batch needs as many rows");
        }
        if (sampleLogEnabled())
            keepMappedSamples(rows, outputs.front(), mark);
        // The stacked columns in order: the outputs where the first input column was.
        const std::size_t at = *std::min_element(m_mapping->inputs.begin(), m_mapping->inputs.end());
        Row out;
        const auto stackOutputs = [&] {
            for (std::size_t o = 0; o < outputs.size(); ++o) {
                std::vector<Row> single;
                for (Array& a : outputs[o])
                    single.push_back(Row{std::move(a)});
                out.push_back(stackColumn(single, 0, m_mapping->outputs[o]));
            }
        };
        for (std::size_t c = 0; c < rows.front().size(); ++c) {
            if (c == at)
                stackOutputs();
            if (std::find(m_mapping->inputs.begin(), m_mapping->inputs.end(), c) == m_mapping->inputs.end())
                out.push_back(stackColumn(rows, c, c < m_names.size() ? m_names[c] : std::to_string(c)));
        }
        return out;
    }

    /// Note [Samples through per_batch_map]: a map that slices the batch by rank receives every
    /// row but passes on some; the sample log (shard-overlap) must hold only those. They are found
    /// by content: each row of the first output column is matched to a row of the first input
    /// column equal in type, shape and bytes. When the batch's rows were not read one log entry
    /// each, or an output row matches no input row (the map computed new values), which samples
    /// went on is unknown and the batch's entries are dropped.
    void keepMappedSamples(const std::vector<Row>& rows, const std::vector<Array>& firstOutput, std::size_t mark) const
    {
        const std::vector<SampleRead> read = sampleLogFrom(mark);
        std::vector<SampleRead> kept;
        if (read.size() == rows.size()) {
            const std::size_t column = m_mapping->inputs.front();
            std::vector<bool> used(rows.size(), false);
            for (const Array& out : firstOutput) {
                std::size_t r = 0;
                for (; r < rows.size(); ++r) {
                    const Array& in = rows[r][column];
                    if (!used[r] && in.sameAs(out))
                        break;
                }
                if (r == rows.size()) {
                    kept.clear();
                    break;
                }
                used[r] = true;
                kept.push_back(read[r]);
            }
        }
        replaceSampleLogFrom(mark, std::move(kept));
    }

    std::unique_ptr<Cursor> m_input;
    std::int64_t m_size;
    bool m_dropRemainder;
    std::vector<std::string> m_names;
    std::shared_ptr<const BatchMapping> m_mapping; ///< null: no per_batch_map
    std::int64_t m_epoch;
    std::int64_t m_batch = 0;
    std::shared_ptr<const ColumnPads> m_pads; ///< null: no padding
};

class BatchDataset : public Operation {
public:
    BatchDataset(DatasetPtr input, std::int64_t size, bool dropRemainder,
                 std::shared_ptr<const BatchMapping> mapping = nullptr, std::shared_ptr<const ColumnPads> pads = nullptr)
        : Operation(std::move(input)), m_size(size), m_dropRemainder(dropRemainder), m_mapping(std::move(mapping)),
          m_pads(std::move(pads))
    {
    }
    std::vector<std::string> columnNames() const override
    {
        return m_mapping ? m_mapping->names : m_input->columnNames();
    }
    std::int64_t batchSize() const override { return m_size; }
    std::optional<std::int64_t> knownSize() const override
    {
        const auto rows = m_input->knownSize();
        if (!rows)
            return std::nullopt;
        return m_dropRemainder ? *rows / m_size : (*rows + m_size - 1) / m_size;
    }
    std::unique_ptr<Cursor> open(std::int64_t epoch) const override
    {
        return std::make_unique<BatchCursor>(m_input->open(epoch), m_size, m_dropRemainder, m_input->columnNames(),
                                             m_mapping, epoch, m_pads);
    }

private:
    std::int64_t m_size;
    bool m_dropRemainder;
    std::shared_ptr<const BatchMapping> m_mapping;
    std::shared_ptr<const ColumnPads> m_pads;
};

class RepeatCursor : public Cursor {
public:
    RepeatCursor(DatasetPtr input, std::int64_t count, std::int64_t epoch)
        : m_input(std::move(input)), m_count(count), m_epoch(epoch)
    {
    }
    std::optional<Row> next() override
    {
        while (m_count < 0 || m_done < m_count) {
            if (!m_cursor)
                m_cursor = m_input->open(m_count < 0 ? m_done : m_epoch * m_count + m_done);
            if (auto row = m_cursor->next())
                return row;
            m_cursor.reset();
            ++m_done;
        }
        return std::nullopt;
    }

private:
    DatasetPtr m_input;
    std::int64_t m_count;
    std::int64_t m_epoch;
    std::int64_t m_done = 0;
    std::unique_ptr<Cursor> m_cursor;
};

class RepeatDataset : public Operation {
public:
    RepeatDataset(DatasetPtr input, std::int64_t count) : Operation(std::move(input)), m_count(count) {}
    std::optional<std::int64_t> knownSize() const override
    {
        const auto rows = m_input->knownSize();
        if (m_count < 0)
            throw ValueError("the size of a data set repeated without end (repeat(-1)) is infinite");
        return rows ? std::optional<std::int64_t>(*rows * m_count) : std::nullopt;
    }
    std::unique_ptr<Cursor> open(std::int64_t epoch) const override
    {
        return std::make_unique<RepeatCursor>(m_input, m_count, epoch);
    }

private:
    std::int64_t m_count;
};

class TakeCursor : public Cursor {
public:
    TakeCursor(std::unique_ptr<Cursor> input, std::int64_t count) : m_input(std::move(input)), m_left(count) {}
    std::optional<Row> next() override
    {
        if (m_left == 0)
            return std::nullopt;
        --m_left;
        return m_input->next();
    }

private:
    std::unique_ptr<Cursor> m_input;
    std::int64_t m_left;
};

class TakeDataset : public Operation {
public:
    TakeDataset(DatasetPtr input, std::int64_t count) : Operation(std::move(input)), m_count(count) {}
    std::optional<std::int64_t> knownSize() const override
    {
        const auto rows = m_input->knownSize();
        if (!rows)
            return std::nullopt;
        return m_count < 0 ? *rows : std::min(*rows, m_count);
    }
    std::unique_ptr<Cursor> open(std::int64_t epoch) const override
    {
        return std::make_unique<TakeCursor>(m_input->open(epoch), m_count);
    }

private:
    std::int64_t m_count;
};

void requirePositive(std::int64_t value, const char* what)
{
    if (value <= 0)
        throw ValueError(std::string(what) + " must be positive, got " + std::to_string(value));
}

} // namespace

DatasetPtr shuffle(DatasetPtr input, std::int64_t bufferSize)
{
    if (bufferSize < 2)
        throw ValueError("shuffle: buffer_size must be at least 2, got " + std::to_string(bufferSize));
    return std::make_shared<ShuffleDataset>(std::move(input), bufferSize);
}

namespace {
std::atomic<std::int64_t> g_batchScale{1};
} // namespace

void setBatchScale(std::int64_t scale)
{
    g_batchScale = std::max<std::int64_t>(1, scale);
}

std::int64_t batchScale()
{
    return g_batchScale.load();
}

DatasetPtr batch(DatasetPtr input, std::int64_t batchSize, bool dropRemainder)
{
    requirePositive(batchSize, "batch: batch_size");
    batchSize *= batchScale();
    return std::make_shared<BatchDataset>(std::move(input), batchSize, dropRemainder);
}

DatasetPtr batch(DatasetPtr input, std::int64_t batchSize, bool dropRemainder, std::shared_ptr<const BatchMap> map,
                 std::vector<std::string> inputColumns, std::vector<std::string> outputColumns)
{
    requirePositive(batchSize, "batch: batch_size");
    batchSize *= batchScale();
    const std::vector<std::string> names = input->columnNames();
    BatchMapping mapping;
    mapping.map = std::move(map);
    if (inputColumns.empty())
        inputColumns = names;
    for (const std::string& name : inputColumns) {
        const std::size_t c = columnIndex(names, name, "batch: input_columns");
        if (std::find(mapping.inputs.begin(), mapping.inputs.end(), c) != mapping.inputs.end())
            throw ValueError("batch: input_columns names '" + name + "' twice");
        mapping.inputs.push_back(c);
    }
    if (mapping.inputs.empty())
        throw ValueError("batch: per_batch_map needs at least one input column");
    mapping.outputs = outputColumns.empty() ? inputColumns : std::move(outputColumns);
    const std::size_t at = *std::min_element(mapping.inputs.begin(), mapping.inputs.end());
    for (std::size_t c = 0; c < names.size(); ++c) {
        if (c == at)
            mapping.names.insert(mapping.names.end(), mapping.outputs.begin(), mapping.outputs.end());
        if (std::find(mapping.inputs.begin(), mapping.inputs.end(), c) == mapping.inputs.end())
            mapping.names.push_back(names[c]);
    }
    return std::make_shared<BatchDataset>(std::move(input), batchSize, dropRemainder,
                                          std::make_shared<const BatchMapping>(std::move(mapping)));
}

DatasetPtr paddedBatch(DatasetPtr input, std::int64_t batchSize, bool dropRemainder,
                       const std::vector<std::pair<std::string, PadSpec>>& padInfo)
{
    requirePositive(batchSize, "padded_batch: batch_size");
    batchSize *= batchScale();
    const std::vector<std::string> names = input->columnNames();
    auto pads = std::make_shared<ColumnPads>(names.size());
    if (padInfo.empty())
        std::fill(pads->begin(), pads->end(), PadSpec{});
    for (const auto& [name, spec] : padInfo)
        (*pads)[columnIndex(names, name, "padded_batch: pad_info")] = spec;
    return std::make_shared<BatchDataset>(std::move(input), batchSize, dropRemainder, nullptr, std::move(pads));
}

DatasetPtr repeat(DatasetPtr input, std::int64_t count)
{
    if (count != -1)
        requirePositive(count, "repeat: count (or -1 for no end)");
    return std::make_shared<RepeatDataset>(std::move(input), count);
}

DatasetPtr take(DatasetPtr input, std::int64_t count)
{
    if (count != -1)
        requirePositive(count, "take: count (or -1 for all)");
    return std::make_shared<TakeDataset>(std::move(input), count);
}

} // namespace gradstep::data
