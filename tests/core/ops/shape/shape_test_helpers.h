// Small constructors shared by the shape-op tests. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <vector>

namespace gradstep::testing {

/// 0, 1, 2, ... in row-major order, with `shape` and `dtype`.
inline Tensor arange(const Shape& shape, DType dtype = DType::Float32)
{
    std::vector<double> v(static_cast<std::size_t>(shape.numel()));
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<double>(i);
    return Tensor::fromDoubles(shape, v, dtype);
}

inline Tensor ints(const Shape& shape, const std::vector<std::int64_t>& v, DType dtype = DType::Int64)
{
    std::vector<double> d(v.begin(), v.end());
    return Tensor::fromDoubles(shape, d, dtype);
}

} // namespace gradstep::testing
