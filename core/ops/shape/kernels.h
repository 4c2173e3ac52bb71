// Shared machinery of the shape ops: axis checks and the strided copy loops that transpose,
// strided_slice and its gradient are built on. SPDX-License-Identifier: MIT
#pragma once

#include "ops/dispatch.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gradstep {

using AxisStrides = std::array<std::int64_t, Shape::kMaxRank>;

/// Throws IndexError in the same "for 'Op', ... (inputs ...)" form as the other dispatch errors.
[[noreturn]] void throwIndexError(const OpCall& call, const std::string& message);

/// An axis of an existing dimension, in [-rank, rank): ValueError naming the op, axis and rank.
int checkedAxis(const OpCall& call, std::int64_t axis, int rank);
/// A position where a new axis is inserted, in [-rank - 1, rank].
int checkedInsertAxis(const OpCall& call, std::int64_t axis, int rank);
/// ValueError unless `value` converts to an integer dtype without overflow (NaN, Inf and values
/// out of range would be undefined behaviour in the conversion); any value suits float and Bool.
void checkRepresentable(const OpCall& call, const char* what, double value, DType dtype);
/// The values of an Int32/Int64 tensor, read once so kernels index without a dtype switch.
std::vector<std::int64_t> indexValues(const Tensor& indices);
/// The product of shape[from, to).
std::int64_t dimProduct(const Shape& shape, int from, int to);
/// shape with dimension `axis` replaced by `dim`.
Shape withDim(const Shape& shape, int axis, std::int64_t dim);

/// Calls f(i, o) for each element of a contiguous `shape` in order, i its contiguous index and
/// o = offset + sum_a i_a * strides[a] its strided position; strides may be negative.
template <class F>
void forEachStrided(const Shape& shape, std::int64_t offset, const AxisStrides& strides, F f)
{
    const std::int64_t n = shape.numel();
    if (n == 0)
        return;
    if (shape.rank() == 0) {
        f(std::int64_t{0}, offset);
        return;
    }
    const int rank = shape.rank();
    const std::int64_t inner = shape[rank - 1];
    const std::int64_t step = strides[static_cast<std::size_t>(rank - 1)];
    AxisStrides counter{};
    for (std::int64_t done = 0; done < n; done += inner) {
        for (std::int64_t j = 0; j < inner; ++j)
            f(done + j, offset + j * step);
        for (int axis = rank - 2; axis >= 0; --axis) {
            const auto ax = static_cast<std::size_t>(axis);
            offset += strides[ax];
            if (++counter[ax] < shape[axis])
                break;
            offset -= strides[ax] * shape[axis];
            counter[ax] = 0;
        }
    }
}

/// dst (contiguous, `shape`) = src[offset + sum_a i_a * strides[a]]; strides may be negative.
template <class T>
void gatherStrided(const T* src, T* dst, const Shape& shape, std::int64_t offset, const AxisStrides& strides)
{
    forEachStrided(shape, offset, strides, [=](std::int64_t i, std::int64_t o) { dst[i] = src[o]; });
}

/// The reverse of gatherStrided: dst[offset + sum_a i_a * strides[a]] = src (contiguous, `shape`).
/// The strided positions must be distinct (they are for slices with non-zero steps).
template <class T>
void scatterStrided(const T* src, T* dst, const Shape& shape, std::int64_t offset, const AxisStrides& strides)
{
    forEachStrided(shape, offset, strides, [=](std::int64_t i, std::int64_t o) { dst[o] = src[i]; });
}

/// One slice per axis, in the normalised form StridedSlice takes (see strided_slice.cpp).
struct SliceSpec {
    std::vector<std::int64_t> begin, end, strides;
};

/// Validates begin/end/strides attributes against `shape` and returns the sliced shape.
Shape slicedShape(const OpCall& call, const Shape& shape, const SliceSpec& spec);
/// Element offset and per-axis strides of the slice inside a contiguous tensor of `shape`.
void sliceLayout(const Shape& shape, const SliceSpec& spec, std::int64_t& offset, AxisStrides& strides);
SliceSpec sliceSpecFromAttrs(const Attrs& attrs);

} // namespace gradstep
