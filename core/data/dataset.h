// The data pipeline behind mindspore.dataset, free of Python: a Dataset is an immutable node
// (a source, or an operation over another node) that opens a Cursor for each epoch. Sources are
// random-access tables (NumPy slices, MNIST, a Python sequence through RowSource) or anything
// implementing Dataset itself (a Python generator). The Python layer adds sources and callables.
// SPDX-License-Identifier: MIT
#pragma once

#include "data/array.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gradstep::data {

/// One value per column, in the order of the data set's column names.
using Row = std::vector<Array>;

/// One pass over a data set's rows.
class Cursor {
public:
    virtual ~Cursor() = default;
    /// The next row, or nullopt at the end of the epoch.
    virtual std::optional<Row> next() = 0;
};

class Dataset {
public:
    virtual ~Dataset() = default;
    virtual std::vector<std::string> columnNames() const = 0;
    /// Rows per epoch when known without iterating (nullopt for generators).
    virtual std::optional<std::int64_t> knownSize() const = 0;
    /// Rows per batch: 1 until a batch operation.
    virtual std::int64_t batchSize() const { return 1; }
    /// A cursor over epoch `epoch` (0, 1, ...): shuffles draw a new order for each epoch.
    virtual std::unique_ptr<Cursor> open(std::int64_t epoch) const = 0;
};

using DatasetPtr = std::shared_ptr<const Dataset>;

/// Rows in one epoch: knownSize, else counted by a pass over epoch 0.
std::int64_t datasetSize(const Dataset& dataset);
/// The index of `name` among the data set's columns; ValueError naming it and the columns.
std::size_t columnIndex(const std::vector<std::string>& columns, const std::string& name, const char* op);

/// A random-access row store.
class RowSource {
public:
    virtual ~RowSource() = default;
    virtual std::int64_t size() const = 0;
    virtual Row row(std::int64_t index) const = 0;
};

/// Columns held in memory, each an array whose axis 0 indexes the rows (NumPy slices, MNIST).
class Table : public RowSource {
public:
    /// ValueError unless every column has rank >= 1 and the same length.
    explicit Table(std::vector<Array> columns);
    std::int64_t size() const override { return m_size; }
    Row row(std::int64_t index) const override;

private:
    std::vector<Array> m_columns;
    std::int64_t m_size = 0;
};

/// Rows of `source` in order, or in a new random order each epoch when `shuffle`; at most
/// `numSamples` of them per epoch.
DatasetPtr randomAccess(std::shared_ptr<const RowSource> source, std::vector<std::string> columns, bool shuffle,
                        std::optional<std::int64_t> numSamples);

/// MindSpore's shuffle buffer: keeps `bufferSize` rows and emits a random one, refilling its
/// place from the input (bufferSize >= the data set's size gives a full shuffle).
DatasetPtr shuffle(DatasetPtr input, std::int64_t bufferSize);
/// Stacks `batchSize` rows per column along a new axis 0; the last, short batch is kept unless
/// `dropRemainder`. Rows of one batch must agree in shape and element type, column by column.
DatasetPtr batch(DatasetPtr input, std::int64_t batchSize, bool dropRemainder);
/// batch's per_batch_map: a function of one batch's rows before they are stacked.
class BatchMap {
public:
    virtual ~BatchMap() = default;
    /// `columns`: each input column's rows of the batch; `batchNumber` counts the epoch's batches
    /// from 0 (BatchInfo.get_batch_num), `epoch` the epochs (get_epoch_num). Returns the output
    /// columns' rows, every column as many (which may differ from the rows given).
    virtual std::vector<std::vector<Array>> apply(std::vector<std::vector<Array>> columns, std::int64_t batchNumber,
                                                  std::int64_t epoch) const = 0;
};

/// batch with per_batch_map: the `map` takes the batch's `inputColumns` (all columns when empty)
/// and gives `outputColumns` (the input columns' names when empty), which take the input columns'
/// place (at the first one's position); the other columns are stacked as they are and must keep
/// as many rows as the map returns. ValueError in MindSpore's words for unknown columns.
DatasetPtr batch(DatasetPtr input, std::int64_t batchSize, bool dropRemainder, std::shared_ptr<const BatchMap> map,
                 std::vector<std::string> inputColumns, std::vector<std::string> outputColumns);
struct PadSpec;
/// batch whose rows are first padded to a common shape, column by column (data/pad.h): the
/// columns `padInfo` names with their specs, or every column with the default spec when it is
/// empty (MindSpore's padded_batch). ValueError for names that are not columns.
DatasetPtr paddedBatch(DatasetPtr input, std::int64_t batchSize, bool dropRemainder,
                       const std::vector<std::pair<std::string, PadSpec>>& padInfo);
/// The rows `count` times (-1: without end); each repetition is a new epoch of the input.
DatasetPtr repeat(DatasetPtr input, std::int64_t count);
/// The first `count` rows of each epoch (-1: all).
DatasetPtr take(DatasetPtr input, std::int64_t count);

/// The ranks what-if's one-process side (compare --what ranks, Note [The ranks what-if] in
/// core/session/compare_ranks.cpp): every batch made while it is set takes batchScale times its
/// batch_size rows. 1 otherwise. Process-wide like the seed below: one script runs at a time, and
/// the comparison sets it only around that side's run (BatchScaleScope).
void setBatchScale(std::int64_t scale);
std::int64_t batchScale();

class BatchScaleScope {
public:
    explicit BatchScaleScope(std::int64_t scale) : m_previous(batchScale()) { setBatchScale(scale); }
    ~BatchScaleScope() { setBatchScale(m_previous); }
    BatchScaleScope(const BatchScaleScope&) = delete;
    BatchScaleScope& operator=(const BatchScaleScope&) = delete;

private:
    std::int64_t m_previous;
};

/// The seed of every shuffle: set by mindspore.dataset.config.set_seed and mindspore.set_seed.
/// Without one, each opened pipeline draws its order from std::random_device, as MindSpore does.
void setSeed(std::uint64_t seed);
void clearSeed();
std::optional<std::uint64_t> seed();
/// The seed of one shuffle of one epoch: the configured seed mixed with the epoch, or a fresh
/// nondeterministic seed when none is set.
std::uint64_t shuffleSeed(std::int64_t epoch);

} // namespace gradstep::data
