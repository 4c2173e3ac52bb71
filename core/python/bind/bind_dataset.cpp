// mindspore.dataset: the Dataset class (batch, shuffle, map, repeat, take, sizes, iterators),
// its iterators and mindspore.dataset.config. The pipeline itself is core/data; sources are in
// bind_dataset_sources.cpp and transforms in bind_dataset_transforms.cpp.
// Iterators yield mindspore.Tensor values (NumPy arrays with output_numpy=True); uint8 images
// become Int32 tensors as Tensor(ndarray) does, keep uint8 as NumPy arrays and in map callables.
// SPDX-License-Identifier: MIT
#include "python/bind/bindings.h"
#include "python/bind/dataset_support.h"

#include "data/pad.h"

#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

namespace py = pybind11;

namespace gradstep::python {

namespace {

/// One iterator over `numEpochs` epochs (-1: any number): each `for` over it is one epoch.
class DatasetIterator {
public:
    DatasetIterator(data::DatasetPtr node, std::int64_t numEpochs, bool asDict, bool numpy,
                    std::vector<std::size_t> columns)
        : m_node(std::move(node)), m_names(m_node->columnNames()), m_numEpochs(numEpochs), m_asDict(asDict),
          m_numpy(numpy), m_columns(std::move(columns))
    {
    }

    py::object next()
    {
        if (!m_cursor) {
            if (m_numEpochs >= 0 && m_epoch >= m_numEpochs)
                throw py::stop_iteration();
            m_cursor = m_node->open(m_epoch);
        }
        auto row = m_cursor->next();
        if (!row) {
            m_cursor.reset();
            ++m_epoch;
            throw py::stop_iteration();
        }
        if (m_asDict) {
            py::dict out;
            for (std::size_t c = 0; c < row->size(); ++c)
                out[py::str(m_names[c])] = toPython((*row)[c], m_numpy);
            return out;
        }
        py::list out;
        for (std::size_t c : m_columns)
            out.append(toPython((*row)[c], m_numpy));
        return out;
    }

private:
    data::DatasetPtr m_node;
    std::vector<std::string> m_names;
    std::int64_t m_numEpochs;
    bool m_asDict;
    bool m_numpy;
    std::vector<std::size_t> m_columns;
    std::int64_t m_epoch = 0;
    std::unique_ptr<data::Cursor> m_cursor;
};

std::vector<std::string> stringList(const py::object& value)
{
    if (value.is_none())
        return {};
    if (py::isinstance<py::str>(value))
        return {value.cast<std::string>()};
    return value.cast<std::vector<std::string>>();
}

DatasetIterator tupleIterator(const PyDataset& self, const py::object& columns, std::int64_t numEpochs, bool numpy)
{
    const auto names = self.node->columnNames();
    std::vector<std::size_t> picked;
    for (const auto& name : stringList(columns))
        picked.push_back(data::columnIndex(names, name, "create_tuple_iterator: columns"));
    if (columns.is_none())
        for (std::size_t c = 0; c < names.size(); ++c)
            picked.push_back(c);
    return {self.node, numEpochs, false, numpy, std::move(picked)};
}

PyDataset mapped(const PyDataset& self, const py::object& operations, const py::object& inputColumns,
                 const py::object& outputColumns)
{
    std::vector<data::TransformPtr> ops;
    if (py::isinstance<py::list>(operations) || py::isinstance<py::tuple>(operations)) {
        for (py::handle op : operations)
            ops.push_back(toTransform(op));
    } else {
        ops.push_back(toTransform(operations));
    }
    return {data::map(self.node, std::move(ops), stringList(inputColumns), stringList(outputColumns))};
}

/// mindspore.dataset.BatchInfo: what per_batch_map is told about the batch it maps.
struct BatchInfo {
    std::int64_t batch = 0; ///< the batch's number in its epoch, from 0
    std::int64_t epoch = 0; ///< the epoch's number, from 0
};

/// per_batch_map: a Python callable given each input column's rows as a list of NumPy arrays and
/// a BatchInfo, returning a tuple (or list) with one sequence of rows per output column (a list of
/// arrays, or an array whose axis 0 are the rows).
class CallableBatchMap : public data::BatchMap {
public:
    CallableBatchMap(py::object function, std::size_t outputs) : m_function(std::move(function)), m_outputs(outputs)
    {
        const py::object name = py::getattr(m_function, "__name__", py::none());
        m_name = name.is_none() ? std::string("per_batch_map") : std::string(py::str(name));
    }
    std::vector<std::vector<data::Array>> apply(std::vector<std::vector<data::Array>> columns,
                                                std::int64_t batchNumber, std::int64_t epoch) const override
    {
        py::gil_scoped_acquire gil;
        py::tuple args(columns.size() + 1);
        for (std::size_t c = 0; c < columns.size(); ++c) {
            py::list rows;
            for (const data::Array& row : columns[c])
                rows.append(toNumpy(row));
            args[c] = rows;
        }
        args[columns.size()] = py::cast(BatchInfo{batchNumber, epoch});
        const py::object result = m_function(*args);
        const std::string where = "batch: the result of per_batch_map '" + m_name + "'";
        // MindSpore reads the result as a tuple of columns, so a list is one too (py::tuple of it).
        std::vector<py::object> outputs;
        if (PyTuple_Check(result.ptr()) || PyList_Check(result.ptr()))
            for (py::handle column : result)
                outputs.push_back(py::reinterpret_borrow<py::object>(column));
        else
            outputs.push_back(result);
        if (outputs.size() != m_outputs)
            throw py::value_error(where + " has " + std::to_string(outputs.size()) + " columns, expected "
                                  + std::to_string(m_outputs) + " (one per output column)");
        std::vector<std::vector<data::Array>> out(outputs.size());
        for (std::size_t c = 0; c < outputs.size(); ++c) {
            if (!py::isinstance<py::sequence>(outputs[c]) && !py::isinstance<py::array>(outputs[c]))
                throw py::type_error(where + ": column " + std::to_string(c) + " must be a list of arrays, got "
                                     + std::string(py::str(py::type::handle_of(outputs[c]).attr("__name__"))));
            for (py::handle row : outputs[c])
                out[c].push_back(toArray(row, where));
        }
        return out;
    }

private:
    py::object m_function;
    std::size_t m_outputs;
    std::string m_name;
};

PyDataset batched(const PyDataset& self, std::int64_t size, bool drop, const py::object& perBatchMap,
                  const py::object& inputColumns, const py::object& outputColumns)
{
    if (perBatchMap.is_none()) {
        if (!inputColumns.is_none() || !outputColumns.is_none())
            throw py::value_error("batch: input_columns and output_columns apply to per_batch_map, which is None");
        return {data::batch(self.node, size, drop)};
    }
    if (!PyCallable_Check(perBatchMap.ptr()))
        throw py::type_error("Argument per_batch_map with value " + std::string(py::repr(perBatchMap))
                             + " is not of type [<class 'function'>], but got "
                             + std::string(py::str(py::type::handle_of(perBatchMap))) + ".");
    std::vector<std::string> inputs = stringList(inputColumns), outputs = stringList(outputColumns);
    const std::size_t outputCount =
        !outputs.empty() ? outputs.size() : !inputs.empty() ? inputs.size() : self.node->columnNames().size();
    auto map = std::make_shared<CallableBatchMap>(perBatchMap, outputCount);
    return {data::batch(self.node, size, drop, std::move(map), std::move(inputs), std::move(outputs))};
}

/// padded_batch's pad_info, checked by the Python layer (mindspore/dataset/_padded_batch.py):
/// {column: (pad_shape or None, pad_value or None)}, None entries of a shape meaning the longest.
data::PadSpec padSpec(const py::handle& shape, const py::handle& value)
{
    data::PadSpec pad;
    if (!shape.is_none()) {
        std::vector<std::int64_t> dims;
        for (py::handle d : shape)
            dims.push_back(d.is_none() ? -1 : d.cast<std::int64_t>());
        pad.shape = std::move(dims);
    }
    if (py::isinstance<py::str>(value) || py::isinstance<py::bytes>(value))
        pad.text = value.cast<std::string>();
    else if (!value.is_none())
        pad.number = value.cast<double>();
    return pad;
}

std::vector<std::pair<std::string, data::PadSpec>> padInfo(const py::dict& info)
{
    std::vector<std::pair<std::string, data::PadSpec>> out;
    for (auto [key, value] : info) {
        const auto spec = value.cast<py::tuple>();
        out.emplace_back(key.cast<std::string>(), padSpec(spec[0], spec[1]));
    }
    return out;
}

/// data::padColumn for the Python layer (bucket_batch_by_length, transforms.PadEnd): NumPy arrays
/// in and out.
py::list padRows(const py::sequence& rows, const py::handle& shape, const py::handle& value, const std::string& column)
{
    std::vector<data::Array> arrays;
    for (py::handle row : rows)
        arrays.push_back(toArray(row, column));
    py::list out;
    for (const data::Array& a : data::padColumn(arrays, padSpec(shape, value), column))
        out.append(toNumpy(a));
    return out;
}

/// Shapes or NumPy dtypes of the first row's columns; none for a data set without rows, as
/// MindSpore answers (a batch with drop_remainder larger than the data set).
py::list firstRow(const PyDataset& self, bool shapes)
{
    auto row = self.node->open(0)->next();
    py::list out;
    if (!row)
        return out;
    for (const data::Array& column : *row)
        out.append(shapes ? py::object(py::cast(column.shape().toVector()))
                          : column.isString() ? py::object(py::dtype("U"))
                                              : py::object(py::dtype(column.type().name())));
    return out;
}

void setDataSeed(const py::handle& value)
{
    if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr()))
        throw py::type_error("set_seed: seed must be an int, got "
                             + std::string(py::str(py::type::handle_of(value).attr("__name__"))));
    const auto seed = value.cast<long long>();
    if (seed < 0 || seed > 0xFFFFFFFFll)
        throw py::value_error("set_seed: seed must be in [0, 4294967295], got " + std::to_string(seed));
    data::setSeed(static_cast<std::uint64_t>(seed));
}

void bindConfig(py::module_& config)
{
    config.def("set_seed", &setDataSeed, py::arg("seed"), "Seeds every shuffle of the data pipelines.");
    // MindSpore reports mt19937's default seed when none was set (and then shuffles randomly).
    config.def("get_seed", [] { return data::seed().value_or(5489); });
}

} // namespace

void bindDataset(py::module_& dataset)
{
    py::class_<DatasetIterator>(dataset, "DatasetIterator")
        .def("__iter__", [](py::object self) { return self; })
        .def("__next__", &DatasetIterator::next);

    const auto none = py::none();
    py::class_<PyDataset> cls(dataset, "Dataset");
    py::class_<BatchInfo>(dataset, "BatchInfo", "What per_batch_map is told about the batch it maps.")
        .def("get_batch_num", [](const BatchInfo& info) { return info.batch; })
        .def("get_epoch_num", [](const BatchInfo& info) { return info.epoch; });
    cls.def("batch", [](const PyDataset& self, std::int64_t size, bool drop, const py::object&,
                        const py::object& perBatchMap, const py::object& inputColumns, const py::object& outputColumns,
                        const py::object&, const py::object&) {
           return batched(self, size, drop, perBatchMap, inputColumns, outputColumns);
       }, py::arg("batch_size"), py::arg("drop_remainder") = false, py::arg("num_parallel_workers") = none,
           py::arg("per_batch_map") = none, py::arg("input_columns") = none, py::arg("output_columns") = none,
           py::arg("python_multiprocessing") = false, py::arg("max_rowsize") = none)
        .def("_padded_batch", [](const PyDataset& self, std::int64_t size, bool drop, const py::dict& info) {
            return PyDataset{data::paddedBatch(self.node, size, drop, padInfo(info))};
        }, py::arg("batch_size"), py::arg("drop_remainder"), py::arg("pad_info"))
        .def("shuffle", [](const PyDataset& self, std::int64_t buffer) {
            return PyDataset{data::shuffle(self.node, buffer)};
        }, py::arg("buffer_size"))
        .def("map", [](const PyDataset& self, const py::object& ops, const py::object& in, const py::object& out,
                       const py::object&, const py::object&) { return mapped(self, ops, in, out); },
             py::arg("operations"), py::arg("input_columns") = none, py::arg("output_columns") = none,
             py::arg("num_parallel_workers") = none, py::arg("python_multiprocessing") = false)
        .def("repeat", [](const PyDataset& self, const py::object& count) {
            return PyDataset{data::repeat(self.node, count.is_none() ? -1 : count.cast<std::int64_t>())};
        }, py::arg("count") = none)
        .def("take", [](const PyDataset& self, std::int64_t count) { return PyDataset{data::take(self.node, count)}; },
             py::arg("count") = -1)
        .def("get_dataset_size", [](const PyDataset& self) {
            if (!self.size)
                self.size = data::datasetSize(*self.node);
            return *self.size;
        })
        .def("get_batch_size", [](const PyDataset& self) { return self.node->batchSize(); })
        .def("get_col_names", [](const PyDataset& self) { return self.node->columnNames(); })
        .def("output_shapes", [](const PyDataset& self) { return firstRow(self, true); })
        .def("output_types", [](const PyDataset& self) { return firstRow(self, false); })
        .def("create_tuple_iterator", [](const PyDataset& self, const py::object& columns, std::int64_t epochs,
                                         bool numpy, bool) { return tupleIterator(self, columns, epochs, numpy); },
             py::arg("columns") = none, py::arg("num_epochs") = -1, py::arg("output_numpy") = false,
             py::arg("do_copy") = true)
        .def("create_dict_iterator", [](const PyDataset& self, std::int64_t epochs, bool numpy, bool) {
            return DatasetIterator(self.node, epochs, true, numpy, {});
        }, py::arg("num_epochs") = -1, py::arg("output_numpy") = false, py::arg("do_copy") = true)
        .def("__iter__", [](const PyDataset& self) { return tupleIterator(self, py::none(), 1, false); });

    dataset.def("_pad_rows", &padRows, py::arg("rows"), py::arg("shape"), py::arg("value"), py::arg("column"),
                "The rows (NumPy arrays of one column) padded or cut to one shape, as padded_batch pads them.");
    bindDatasetSources(dataset);
    py::module_ config = dataset.def_submodule("config", "mindspore.dataset.config: pipeline settings");
    bindConfig(config);
    py::module_ transforms = dataset.def_submodule("transforms", "mindspore.dataset.transforms: TypeCast");
    py::module_ vision = dataset.def_submodule("vision", "mindspore.dataset.vision: Rescale, HWC2CHW");
    bindDatasetTransforms(transforms, vision);
}

} // namespace gradstep::python
