// The sources of mindspore.dataset: NumpySlicesDataset, GeneratorDataset and MnistDataset. Each
// is a Dataset subclass whose constructor builds a core pipeline node. Defaults follow MindSpore:
// shuffle=None means shuffled for random-access sources; generators and iterables keep their
// order. SPDX-License-Identifier: MIT
#include "python/bind/dataset_support.h"

#include "data/mnist.h"
#include "data/sampler.h"
#include "data/shard.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace gradstep::python {

namespace {

struct NumpySlicesDataset : PyDataset {};
struct GeneratorDataset : PyDataset {};
struct MnistDataset : PyDataset {};

using OptionalNames = std::optional<std::vector<std::string>>;

std::vector<std::string> defaultNames(std::size_t count)
{
    std::vector<std::string> names;
    for (std::size_t i = 0; i < count; ++i)
        names.push_back("column_" + std::to_string(i));
    return names;
}

/// column_names as given: a string or a list of strings.
OptionalNames namesArgument(const py::object& names)
{
    if (names.is_none())
        return std::nullopt;
    if (py::isinstance<py::str>(names))
        return std::vector<std::string>{names.cast<std::string>()};
    return names.cast<std::vector<std::string>>();
}

/// How a source's rows are picked: shuffled or not, at most numSamples, and the shard of a
/// data-parallel run (num_shards / shard_id or a DistributedSampler), with MindSpore's checks.
struct Selection {
    bool shuffle = true;
    std::optional<std::int64_t> numSamples;
    std::optional<data::Shard> shard;
    std::shared_ptr<const data::Sampler> sampler;
};

/// A sampler object of the Python layer (mindspore.dataset's samplers define _gradstep_indices
/// and _gradstep_size), or any iterable of row indices a script passes (MindSpore accepts those).
class PySampler : public data::Sampler {
public:
    explicit PySampler(py::object sampler) : m_sampler(std::move(sampler)) {}
    std::vector<std::int64_t> indices(std::int64_t rows, std::int64_t /*epoch*/, std::uint64_t seed,
                                      const std::vector<std::int64_t>& labels) const override
    {
        py::object drawn;
        if (classColumn())
            drawn = m_sampler.attr("_gradstep_indices")(rows, seed, labels);
        else if (py::hasattr(m_sampler, "_gradstep_indices"))
            drawn = m_sampler.attr("_gradstep_indices")(rows, seed);
        else if (py::hasattr(m_sampler, "__iter__"))
            drawn = py::list(py::iter(m_sampler));
        else { // random access (__getitem__ and __len__), as MindSpore takes a sampler
            py::list picked;
            const auto size = py::len(m_sampler);
            for (std::size_t i = 0; i < size; ++i)
                picked.append(m_sampler[py::int_(i)]);
            drawn = picked;
        }
        std::vector<std::int64_t> out;
        for (py::handle index : drawn) {
            if (!py::isinstance<py::int_>(index) && !py::hasattr(index, "__index__"))
                throw py::type_error("sampler: the indices must be integers, got "
                                     + std::string(py::str(py::type::handle_of(index).attr("__name__"))));
            out.push_back(py::int_(py::reinterpret_borrow<py::object>(index)).cast<std::int64_t>());
        }
        return out;
    }
    std::optional<std::int64_t> count(std::int64_t rows) const override
    {
        if (!py::hasattr(m_sampler, "_gradstep_size"))
            return std::nullopt;
        return m_sampler.attr("_gradstep_size")(rows).cast<std::int64_t>();
    }
    std::optional<std::string> classColumn() const override
    {
        if (!py::hasattr(m_sampler, "_gradstep_class_column"))
            return std::nullopt;
        return m_sampler.attr("_gradstep_class_column").cast<std::string>();
    }

private:
    py::object m_sampler;
};

Selection selection(const char* source, const py::object& shuffle, const py::object& numSamples,
                    const py::object& sampler, const py::object& numShards, const py::object& shardId);

data::DatasetPtr rows(std::shared_ptr<const data::RowSource> table, std::vector<std::string> names, const Selection& s)
{
    if (s.sampler)
        return data::sampledRandomAccess(std::move(table), std::move(names), s.sampler, s.numSamples);
    if (s.shard)
        return data::shardedRandomAccess(std::move(table), std::move(names), s.shuffle, s.numSamples, *s.shard);
    return data::randomAccess(std::move(table), std::move(names), s.shuffle, s.numSamples);
}

std::optional<std::int64_t> optionalCount(const py::object& value)
{
    return value.is_none() ? std::nullopt : std::optional<std::int64_t>(value.cast<std::int64_t>());
}

Selection selection(const char* source, const py::object& shuffle, const py::object& numSamples,
                    const py::object& sampler, const py::object& numShards, const py::object& shardId)
{
    Selection out;
    out.numSamples = optionalCount(numSamples);
    out.shuffle = shuffle.is_none() || shuffle.cast<bool>();
    if (!sampler.is_none()) {
        if (!numShards.is_none() || !shardId.is_none())
            throw py::value_error("Conflicting arguments during sampler assignments. num_shards: "
                                  + std::string(py::str(numShards)) + ", shard_id: " + std::string(py::str(shardId)));
        if (!shuffle.is_none())
            throw py::value_error("Conflicting arguments during sampler assignments. shuffle: "
                                  + std::string(py::str(shuffle)));
        if (!py::hasattr(sampler, "_gradstep_distributed")) {
            const bool randomAccess = py::hasattr(sampler, "__getitem__") && py::hasattr(sampler, "__len__");
            if (!py::hasattr(sampler, "_gradstep_indices") && !py::hasattr(sampler, "__iter__") && !randomAccess)
                throw py::type_error(std::string(source) + ": sampler must be a mindspore.dataset sampler, an "
                                     "iterable of row indices or an object with __getitem__ and __len__, got "
                                     + std::string(py::str(py::type::handle_of(sampler).attr("__name__"))));
            out.sampler = std::make_shared<PySampler>(sampler);
            return out;
        }
        out.shuffle = sampler.attr("shuffle").cast<bool>();
        out.shard = data::Shard{sampler.attr("num_shards").cast<std::int64_t>(), sampler.attr("shard_id").cast<std::int64_t>()};
        if (const auto limit = optionalCount(sampler.attr("num_samples")))
            out.numSamples = out.numSamples ? std::min(*out.numSamples, *limit) : *limit;
        return out;
    }
    if (!numShards.is_none() && shardId.is_none())
        throw py::value_error("num_shards is specified and currently requires shard_id as well");
    if (numShards.is_none() && !shardId.is_none())
        throw py::value_error("shard_id is specified but num_shards is not");
    if (!numShards.is_none()) {
        out.shard = data::Shard{numShards.cast<std::int64_t>(), shardId.cast<std::int64_t>()};
        data::checkShard(*out.shard, source);
    }
    return out;
}

/// Columns NumPy cannot make one array of (rows of different shapes): row i is each column's
/// element i, converted when it is read, as MindSpore slices such lists.
class RaggedSlices : public data::RowSource {
public:
    explicit RaggedSlices(std::vector<py::object> columns) : m_columns(std::move(columns))
    {
        m_rows = static_cast<std::int64_t>(py::len(m_columns.front()));
        for (const py::object& column : m_columns)
            if (static_cast<std::int64_t>(py::len(column)) != m_rows)
                throw py::value_error("NumpySlicesDataset: the columns have different numbers of rows ("
                                      + std::to_string(m_rows) + " and " + std::to_string(py::len(column)) + ")");
    }
    std::int64_t size() const override { return m_rows; }
    data::Row row(std::int64_t index) const override
    {
        data::Row out;
        for (std::size_t c = 0; c < m_columns.size(); ++c)
            out.push_back(toArray(m_columns[c][py::int_(index)],
                                  "NumpySlicesDataset: column " + std::to_string(c) + ", row " + std::to_string(index)));
        return out;
    }

private:
    std::vector<py::object> m_columns;
    std::int64_t m_rows = 0;
};

/// Whether NumPy fails to make one array of `column` because its rows differ in shape.
bool ragged(const py::handle& column)
{
    if (!py::isinstance<py::list>(column) && !PyTuple_Check(column.ptr()))
        return false;
    try {
        py::module_::import("numpy").attr("asarray")(column);
        return false;
    } catch (py::error_already_set& e) {
        if (!e.matches(PyExc_ValueError))
            throw;
        return true;
    }
}

NumpySlicesDataset numpySlices(const py::object& data, const py::object& columnNames, const py::object& numSamples,
                               const py::object& /*workers*/, const py::object& shuffle, const py::object& sampler,
                               const py::object& numShards, const py::object& shardId)
{
    const Selection picked = selection("NumpySlicesDataset", shuffle, numSamples, sampler, numShards, shardId);
    std::vector<py::object> given;
    std::vector<std::string> names;
    if (py::isinstance<py::dict>(data)) {
        for (auto item : py::reinterpret_borrow<py::dict>(data)) {
            names.push_back(py::str(item.first));
            given.push_back(py::reinterpret_borrow<py::object>(item.second));
        }
    } else if (PyTuple_Check(data.ptr())) {
        for (py::handle item : py::reinterpret_borrow<py::tuple>(data))
            given.push_back(py::reinterpret_borrow<py::object>(item));
    } else {
        given.push_back(data);
    }
    const bool anyRagged = std::any_of(given.begin(), given.end(), [](const py::object& c) { return ragged(c); });
    std::vector<data::Array> columns;
    if (!anyRagged)
        for (std::size_t c = 0; c < given.size(); ++c)
            columns.push_back(toArray(given[c], names.empty() ? "NumpySlicesDataset: column " + std::to_string(c)
                                                              : "NumpySlicesDataset: column '" + names[c] + "'"));
    if (auto namesGiven = namesArgument(columnNames)) {
        if (namesGiven->size() != given.size())
            throw py::value_error("NumpySlicesDataset: column_names has " + std::to_string(namesGiven->size())
                                  + " names but data has " + std::to_string(given.size()) + " column(s)");
        names = *namesGiven;
    } else if (names.empty()) {
        names = defaultNames(given.size());
    }
    NumpySlicesDataset out;
    if (anyRagged)
        out.node = rows(std::make_shared<RaggedSlices>(std::move(given)), names, picked);
    else
        out.node = rows(std::make_shared<data::Table>(std::move(columns)), names, picked);
    return out;
}

/// A Python object with __getitem__ and __len__: MindSpore's random-accessible source.
class SequenceSource : public data::RowSource {
public:
    SequenceSource(py::object source, std::size_t columns) : m_source(std::move(source)), m_columns(columns) {}
    std::int64_t size() const override { return static_cast<std::int64_t>(py::len(m_source)); }
    data::Row row(std::int64_t index) const override
    {
        return toSourceRow(m_source[py::int_(index)], m_columns,
                           "GeneratorDataset: source[" + std::to_string(index) + "]");
    }

private:
    py::object m_source;
    std::size_t m_columns;
};

class IteratorCursor : public data::Cursor {
public:
    IteratorCursor(py::object iterator, std::size_t columns) : m_iterator(std::move(iterator)), m_columns(columns) {}
    std::optional<data::Row> next() override
    {
        py::object item = py::reinterpret_steal<py::object>(PyIter_Next(m_iterator.ptr()));
        if (!item) {
            if (PyErr_Occurred())
                throw py::error_already_set();
            return std::nullopt;
        }
        return toSourceRow(item, m_columns, "GeneratorDataset: the generator's row " + std::to_string(m_count++));
    }

private:
    py::object m_iterator;
    std::size_t m_columns;
    std::int64_t m_count = 0;
};

/// A generator function (called once per epoch), a generator or iterator (read once), or an
/// iterable (iterated once per epoch), in its own order.
class IterableDataset : public data::Dataset {
public:
    IterableDataset(py::object source, std::vector<std::string> names)
        : m_source(std::move(source)), m_names(std::move(names))
    {
    }
    std::vector<std::string> columnNames() const override { return m_names; }
    std::optional<std::int64_t> knownSize() const override { return std::nullopt; }
    std::unique_ptr<data::Cursor> open(std::int64_t /*epoch*/) const override
    {
        // iter() first whenever the source has __iter__: an iterator class whose __iter__ resets it
        // (the dataset tutorial's IterableDataset) starts over each epoch; a generator object is its
        // own iterator, read once.
        // An object with __getitem__ alone iterates by Python's sequence protocol (until IndexError).
        py::object iterator;
        if (py::hasattr(m_source, "__iter__") || py::hasattr(m_source, "__getitem__"))
            iterator = py::iter(m_source);
        else if (PyCallable_Check(m_source.ptr()))
            iterator = py::iter(m_source());
        else
            iterator = m_source;
        return std::make_unique<IteratorCursor>(std::move(iterator), m_names.size());
    }

private:
    py::object m_source;
    std::vector<std::string> m_names;
};

GeneratorDataset generatorDataset(const py::object& source, const py::object& columnNames,
                                  const py::object& numSamples, const py::object& shuffle, const py::object& sampler,
                                  const py::object& numShards, const py::object& shardId)
{
    const Selection picked = selection("GeneratorDataset", shuffle, numSamples, sampler, numShards, shardId);
    const auto names = namesArgument(columnNames);
    if (!names || names->empty())
        throw py::value_error("GeneratorDataset: column_names must name the source's columns");
    const auto limit = optionalCount(numSamples);
    GeneratorDataset out;
    if (py::hasattr(source, "__getitem__") && py::hasattr(source, "__len__")) {
        out.node = rows(std::make_shared<SequenceSource>(source, names->size()), *names, picked);
    } else if (picked.shard || picked.sampler) {
        throw py::value_error("GeneratorDataset: a sampler, num_shards and shard_id need a random-accessible "
                              "source (__getitem__ and __len__); a generator or iterable cannot be sampled or "
                              "sharded");
    } else if (PyIter_Check(source.ptr()) || PyCallable_Check(source.ptr()) || py::hasattr(source, "__iter__")
               || py::hasattr(source, "__getitem__")) {
        out.node = std::make_shared<IterableDataset>(source, *names);
        if (limit)
            out.node = data::take(out.node, *limit);
    } else {
        throw py::type_error("GeneratorDataset: source must be a generator function, an iterable or a sequence "
                             "(__getitem__ and __len__), got "
                             + std::string(py::str(py::type::handle_of(source).attr("__name__"))));
    }
    return out;
}

MnistDataset mnistDataset(const std::string& directory, const py::object& usage, const py::object& numSamples,
                          const py::object& /*workers*/, const py::object& shuffle, const py::object& sampler,
                          const py::object& numShards, const py::object& shardId)
{
    const Selection picked = selection("MnistDataset", shuffle, numSamples, sampler, numShards, shardId);
    const std::string split = usage.is_none() ? "all" : usage.cast<std::string>();
    MnistDataset out;
    out.node = rows(data::readMnist(directory, split), {"image", "label"}, picked);
    return out;
}

} // namespace

void bindDatasetSources(py::module_& dataset)
{
    const auto none = py::none();
    py::class_<NumpySlicesDataset, PyDataset>(dataset, "NumpySlicesDataset")
        .def(py::init(&numpySlices), py::arg("data"), py::arg("column_names") = none,
             py::arg("num_samples") = none, py::arg("num_parallel_workers") = 1, py::arg("shuffle") = none,
             py::arg("sampler") = none, py::arg("num_shards") = none, py::arg("shard_id") = none,
             "Rows sliced along axis 0 of a list, tuple of arrays (one column each) or dict.");
    py::class_<GeneratorDataset, PyDataset>(dataset, "GeneratorDataset")
        .def(py::init([](const py::object& source, const py::object& columnNames, const py::object& /*types*/,
                         const py::object& /*schema*/, const py::object& numSamples, const py::object& /*workers*/,
                         const py::object& shuffle, const py::object& sampler, const py::object& numShards,
                         const py::object& shardId, const py::object& /*multiprocessing*/,
                         const py::object& /*maxRowSize*/) {
                 return generatorDataset(source, columnNames, numSamples, shuffle, sampler, numShards, shardId);
             }),
             py::arg("source"), py::arg("column_names") = none, py::arg("column_types") = none,
             py::arg("schema") = none, py::arg("num_samples") = none, py::arg("num_parallel_workers") = 1,
             py::arg("shuffle") = none, py::arg("sampler") = none, py::arg("num_shards") = none,
             py::arg("shard_id") = none, py::arg("python_multiprocessing") = true, py::arg("max_rowsize") = 6,
             "Rows from a generator function, an iterable, or a sequence with __getitem__ and __len__.");
    py::class_<MnistDataset, PyDataset>(dataset, "MnistDataset")
        .def(py::init(&mnistDataset), py::arg("dataset_dir"), py::arg("usage") = none,
             py::arg("num_samples") = none, py::arg("num_parallel_workers") = none, py::arg("shuffle") = none,
             py::arg("sampler") = none, py::arg("num_shards") = none, py::arg("shard_id") = none,
             "Columns image (uint8, H x W x 1) and label (uint32) from MNIST IDX files in dataset_dir.");
}

} // namespace gradstep::python
