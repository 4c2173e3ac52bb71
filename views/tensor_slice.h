// A 2-D slice of an N-D tensor for display: the last two axes, at fixed indices of the leading
// ones. A 1-D tensor is one row, a 0-D tensor one cell. No Qt here. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <cstdint>
#include <vector>

namespace gradstep::views {

struct Slice2D {
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::vector<double> values; ///< rows * cols, row-major

    double at(std::int64_t r, std::int64_t c) const { return values[std::size_t(r * cols + c)]; }
};

/// `leading` holds one index per axis before the last two (missing ones count as 0; out of
/// range ones are clamped). An undefined tensor gives an empty slice.
Slice2D sliceOf(const Tensor& tensor, const std::vector<std::int64_t>& leading);
/// The number of leading axes a slice of `shape` fixes: rank - 2, at least 0.
int leadingAxes(const Shape& shape);

} // namespace gradstep::views
