// Shape and indexing ops. One file per op under shape/. SPDX-License-Identifier: MIT
#pragma once

#include "tensor/tensor.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace gradstep {

/// One -1 entry is inferred.
Tensor reshape(const Tensor& x, const std::vector<std::int64_t>& shape);
/// perm empty: reverse the axes.
Tensor transpose(const Tensor& x, std::vector<std::int64_t> perm = {});
Tensor expandDims(const Tensor& x, std::int64_t axis);
/// axis empty: every axis of size 1.
Tensor squeeze(const Tensor& x, std::vector<std::int64_t> axis = {});
Tensor broadcastTo(const Tensor& x, const std::vector<std::int64_t>& shape);
/// (N, ...) -> (N, prod(...)) as nn.Flatten does.
Tensor flatten(const Tensor& x);
Tensor concat(const TensorList& xs, std::int64_t axis = 0);
Tensor stack(const TensorList& xs, std::int64_t axis = 0);
/// Equal parts when sizes is empty (outputNum parts), else parts of the given sizes.
TensorList split(const Tensor& x, std::int64_t axis, std::int64_t outputNum);
TensorList splitSizes(const Tensor& x, std::int64_t axis, const std::vector<std::int64_t>& sizes);
/// MindSpore StridedSlice over every axis: begin/end/strides have one entry per axis (already
/// normalised: 0 <= begin, end <= dim for positive strides; -1 <= begin, end <= dim - 1 for
/// negative ones, where end = -1 runs through index 0).
Tensor stridedSlice(const Tensor& x, const std::vector<std::int64_t>& begin,
                    const std::vector<std::int64_t>& end, const std::vector<std::int64_t>& strides);
/// The gradient of stridedSlice: dy scattered into zeros of `shape` at the sliced positions.
Tensor stridedSliceGrad(const Tensor& dy, const std::vector<std::int64_t>& shape,
                        const std::vector<std::int64_t>& begin, const std::vector<std::int64_t>& end,
                        const std::vector<std::int64_t>& strides);
/// Gathers slices of params along axis at integer indices (Int32/Int64, any shape).
Tensor gather(const Tensor& params, const Tensor& indices, std::int64_t axis = 0);
/// Sums the slices x[j, ...] into row segmentIds[j] of a (numSegments, ...) result; segmentIds'
/// shape is a prefix of x's. Gather's gradient.
Tensor unsortedSegmentSum(const Tensor& x, const Tensor& segmentIds, std::int64_t numSegments);
Tensor oneHot(const Tensor& indices, std::int64_t depth, double onValue = 1.0, double offValue = 0.0,
              std::int64_t axis = -1, DType dtype = DType::Float32);
Tensor tile(const Tensor& x, const std::vector<std::int64_t>& multiples);
Tensor zerosLike(const Tensor& x);
Tensor onesLike(const Tensor& x);
Tensor fill(DType dtype, const std::vector<std::int64_t>& shape, double value);

/// One item of a Python subscript: x[1, 2:5, ..., None, idx].
struct IndexItem {
    enum class Kind { Int, Slice, Ellipsis, NewAxis, Tensor };
    Kind kind = Kind::Int;
    std::int64_t value = 0;
    std::optional<std::int64_t> start, stop, step;
    gradstep::Tensor tensor; ///< Int32/Int64 indices or a Bool mask

    static IndexItem integer(std::int64_t i) { return {Kind::Int, i, {}, {}, {}, {}}; }
    static IndexItem slice(std::optional<std::int64_t> start, std::optional<std::int64_t> stop,
                           std::optional<std::int64_t> step = {})
    {
        return {Kind::Slice, 0, start, stop, step, {}};
    }
    static IndexItem ellipsis() { return {Kind::Ellipsis, 0, {}, {}, {}, {}}; }
    static IndexItem newAxis() { return {Kind::NewAxis, 0, {}, {}, {}, {}}; }
    static IndexItem index(const gradstep::Tensor& t) { return {Kind::Tensor, 0, {}, {}, {}, t}; }
};

/// NumPy/MindSpore basic and integer-array indexing, built from the primitive ops above
/// (so it is differentiable through them). Errors name the index and the shape.
Tensor getitem(const Tensor& x, const std::vector<IndexItem>& index);

} // namespace gradstep
