// MNIST-style IDX files in a directory, as mindspore.dataset.MnistDataset reads them.
// SPDX-License-Identifier: MIT
#pragma once

#include "data/dataset.h"

#include <memory>
#include <string>

namespace gradstep::data {

/// The table of columns "image" (uint8, N x rows x cols x 1, HWC as MindSpore) and "label"
/// (uint32, N) for `usage` "train", "test" or "all" (train rows, then test rows).
/// Files are found under MNIST's names (train-images-idx3-ubyte, t10k-labels-idx1-ubyte, also
/// with '.idx' for '-idx') or the sample digits' names (digits-train-images-idx3-ubyte,
/// digits-test-...). ValueError naming the path for a missing directory or file, a bad usage,
/// or image and label counts that differ; RuntimeError for a malformed file (from idx.h).
std::shared_ptr<const Table> readMnist(const std::string& directory, const std::string& usage);

} // namespace gradstep::data
