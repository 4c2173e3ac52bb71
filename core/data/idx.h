// MNIST's IDX file format: unsigned-byte images (magic 0x803) and labels (magic 0x801).
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gradstep {

/// An IDX file's unsigned bytes as stored: `dims` from the header (N, rows, cols for images; N
/// for labels) and the values in row-major order.
struct IdxBytes {
    std::vector<std::int64_t> dims;
    std::vector<unsigned char> values;
};

/// The raw bytes of an image file (magic 0x803) or a label file (magic 0x801).
IdxBytes readIdxImageBytes(const std::string& path);
IdxBytes readIdxLabelBytes(const std::string& path);

/// Images as Float32 (N, 1, rows, cols) with pixels scaled to [0, 1]. Errors name the file.
Tensor readIdxImages(const std::string& path);
/// Labels as Int32 (N,).
Tensor readIdxLabels(const std::string& path);

} // namespace gradstep
