// shuffle, batch, repeat and take over another data set. Each is a node forwarding the column
// names and sizes and a cursor pulling rows from its input's cursor. SPDX-License-Identifier: MIT
#include "data/dataset.h"

#include "random/generator.h"

#include <algorithm>
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
    Array stacked(first.type(), shape);
    for (std::size_t r = 0; r < rows.size(); ++r)
        if (first.nbytes() > 0)
            std::memcpy(stacked.bytes() + r * first.nbytes(), rows[r][c].bytes(), first.nbytes());
    return stacked;
}

class BatchCursor : public Cursor {
public:
    BatchCursor(std::unique_ptr<Cursor> input, std::int64_t size, bool dropRemainder, std::vector<std::string> names)
        : m_input(std::move(input)), m_size(size), m_dropRemainder(dropRemainder), m_names(std::move(names))
    {
    }
    std::optional<Row> next() override
    {
        std::vector<Row> rows;
        while (static_cast<std::int64_t>(rows.size()) < m_size) {
            auto row = m_input->next();
            if (!row)
                break;
            rows.push_back(std::move(*row));
        }
        if (rows.empty() || (m_dropRemainder && static_cast<std::int64_t>(rows.size()) < m_size))
            return std::nullopt;
        Row out;
        for (std::size_t c = 0; c < rows.front().size(); ++c)
            out.push_back(stackColumn(rows, c, c < m_names.size() ? m_names[c] : std::to_string(c)));
        return out;
    }

private:
    std::unique_ptr<Cursor> m_input;
    std::int64_t m_size;
    bool m_dropRemainder;
    std::vector<std::string> m_names;
};

class BatchDataset : public Operation {
public:
    BatchDataset(DatasetPtr input, std::int64_t size, bool dropRemainder)
        : Operation(std::move(input)), m_size(size), m_dropRemainder(dropRemainder)
    {
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
        return std::make_unique<BatchCursor>(m_input->open(epoch), m_size, m_dropRemainder, columnNames());
    }

private:
    std::int64_t m_size;
    bool m_dropRemainder;
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

DatasetPtr batch(DatasetPtr input, std::int64_t batchSize, bool dropRemainder)
{
    requirePositive(batchSize, "batch: batch_size");
    return std::make_shared<BatchDataset>(std::move(input), batchSize, dropRemainder);
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
