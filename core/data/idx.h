// MNIST's IDX file format: unsigned-byte images (magic 0x803) and labels (magic 0x801).
// SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <string>

namespace gradstep {

/// Images as Float32 (N, 1, rows, cols) with pixels scaled to [0, 1]. Errors name the file.
Tensor readIdxImages(const std::string& path);
/// Labels as Int32 (N,).
Tensor readIdxLabels(const std::string& path);

} // namespace gradstep
