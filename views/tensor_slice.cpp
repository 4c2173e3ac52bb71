// SPDX-License-Identifier: MIT
#include "views/tensor_slice.h"

#include "tensor/dtype_storage.h"

#include <algorithm>

namespace gradstep::views {

int leadingAxes(const Shape& shape)
{
    return std::max(0, shape.rank() - 2);
}

Slice2D sliceOf(const Tensor& tensor, const std::vector<std::int64_t>& leading)
{
    Slice2D slice;
    if (!tensor.defined())
        return slice;
    const Shape& shape = tensor.shape();
    const int rank = shape.rank();
    slice.rows = rank >= 2 ? shape[rank - 2] : 1;
    slice.cols = rank >= 1 ? shape[rank - 1] : 1;
    std::int64_t offset = 0;
    std::int64_t stride = slice.rows * slice.cols;
    for (int axis = leadingAxes(shape) - 1; axis >= 0; --axis) {
        const std::int64_t wanted = std::size_t(axis) < leading.size() ? leading[std::size_t(axis)] : 0;
        const std::int64_t index = std::clamp<std::int64_t>(wanted, 0, std::max<std::int64_t>(shape[axis] - 1, 0));
        offset += index * stride;
        stride *= shape[axis];
    }
    if (tensor.numel() == 0)
        slice.rows = slice.cols = 0;
    slice.values.resize(std::size_t(slice.rows * slice.cols));
    if (isComplex(tensor.dtype())) {
        // Shown by magnitude |z|, as the statistics beside it are (TensorStats::summary says so).
        visitComplex(tensor.dtype(), [&](auto* tag) {
            using C = std::remove_pointer_t<decltype(tag)>;
            const C* p = static_cast<const C*>(tensor.rawData()) + offset;
            for (std::size_t i = 0; i < slice.values.size(); ++i)
                slice.values[i] = static_cast<double>(std::abs(p[i]));
        });
        return slice;
    }
    for (std::size_t i = 0; i < slice.values.size(); ++i)
        slice.values[i] = tensor.at(offset + std::int64_t(i));
    return slice;
}

} // namespace gradstep::views
