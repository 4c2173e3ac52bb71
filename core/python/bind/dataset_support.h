// What the mindspore.dataset bindings share: the Python Dataset wrapper over a core pipeline
// node, and conversions between Python values and pipeline arrays (GIL held).
// SPDX-License-Identifier: MIT
#pragma once

#include "data/dataset.h"
#include "data/transforms.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace gradstep::python {

/// mindspore.dataset.Dataset: every source and operation returns one.
struct PyDataset {
    PyDataset() = default;
    PyDataset(data::DatasetPtr pipeline) : node(std::move(pipeline)) {} // NOLINT: {node} reads as the dataset

    data::DatasetPtr node;
    /// get_dataset_size's answer once counted, as MindSpore keeps it (Dataset.dataset_size): a
    /// pipeline of unknown size (a GeneratorDataset over a generator) is counted by running it,
    /// and Model.train asks on every call.
    mutable std::optional<std::int64_t> size;
};

/// A copy of a Tensor, NumPy array, number, string, bytes or nested list as a pipeline array;
/// TypeError naming `where` for other values.
data::Array toArray(pybind11::handle value, const std::string& where);
/// A row from a Python value: a tuple gives one column per element, anything else one column.
/// ValueError naming `where` unless it has `columns` columns.
data::Row toRow(pybind11::handle value, std::size_t columns, const std::string& where);
/// A row of a GeneratorDataset's source as MindSpore reads it: a number, string, bytes, array,
/// Tensor or dict is one column; a tuple, list or other iterable gives one column per item.
/// RuntimeError in MindSpore's words for an item NumPy can only hold as objects, or unless the
/// row has `columns` columns.
data::Row toSourceRow(pybind11::handle value, std::size_t columns, const std::string& where);
/// A NumPy array holding a copy, with the array's own element type (uint8 stays uint8; strings
/// become NumPy str).
pybind11::array toNumpy(const data::Array& array);
/// A mindspore.Tensor, or a NumPy array when `numpy` or for strings. Element types a Tensor lacks convert as
/// Tensor(ndarray) does: uint8 and int16 to Int32, uint32 and uint64 to Int64, float16 to Float32.
pybind11::object toPython(const data::Array& array, bool numpy);

/// A map operation: one of our transform objects, or any Python callable (given NumPy arrays,
/// returning an array, a number or a tuple of them).
data::TransformPtr toTransform(pybind11::handle operation);

/// The sources (NumpySlicesDataset, GeneratorDataset, MnistDataset) on mindspore.dataset.
void bindDatasetSources(pybind11::module_& dataset);
/// mindspore.dataset.transforms (TypeCast) and mindspore.dataset.vision (Rescale, HWC2CHW).
void bindDatasetTransforms(pybind11::module_& transforms, pybind11::module_& vision);

} // namespace gradstep::python
