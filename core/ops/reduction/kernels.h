// Shared machinery of the reductions: axis normalisation, shape rule and the reduction loop.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/dispatch.h"

#include <array>
#include <cstdint>
#include <vector>

namespace gradstep {

/// Which axes an `axis` attribute reduces (empty attribute: all), validated against the rank.
std::array<bool, Shape::kMaxRank> reducedAxes(const OpCall& call, const Tensor& x);
/// The output shape with reduced axes kept as 1.
Shape keptShape(const Shape& in, const std::array<bool, Shape::kMaxRank>& reduced);
/// The output shape with reduced axes dropped (keepDims false) or kept as 1.
Shape reducedShape(const Shape& in, const std::array<bool, Shape::kMaxRank>& reduced, bool keepDims);
/// Shape rule shared by reduce_sum/mean/max/min: float or integer input, same dtype out.
void inferReduce(const OpCall& call, SpecList& out);

/// Folds every input element into out[j] with combine(acc, x), where j drops the reduced axes.
/// out must hold `init` in each element beforehand.
template <class T, class Acc, class Combine>
void reduceInto(const Tensor& x, const std::array<bool, Shape::kMaxRank>& reduced, Acc* out, Combine combine)
{
    const Shape& s = x.shape();
    const int rank = s.rank();
    const T* px = static_cast<const T*>(x.rawData());
    const std::int64_t n = x.numel();
    if (n == 0)
        return;
    if (rank == 0) {
        out[0] = combine(out[0], px[0]);
        return;
    }
    const Shape kept = keptShape(s, reduced);
    const auto keptStrides = contiguousStrides(kept);
    std::array<std::int64_t, Shape::kMaxRank> strides{};
    for (int a = 0; a < rank; ++a)
        strides[static_cast<std::size_t>(a)] = reduced[static_cast<std::size_t>(a)] ? 0 : keptStrides[static_cast<std::size_t>(a)];
    const std::int64_t inner = s[rank - 1];
    const std::int64_t innerStride = strides[static_cast<std::size_t>(rank - 1)];
    std::array<std::int64_t, Shape::kMaxRank> counter{};
    std::int64_t off = 0;
    for (std::int64_t done = 0; done < n; done += inner) {
        if (innerStride == 0) {
            Acc acc = out[off];
            for (std::int64_t j = 0; j < inner; ++j)
                acc = combine(acc, px[done + j]);
            out[off] = acc;
        } else {
            for (std::int64_t j = 0; j < inner; ++j)
                out[off + j] = combine(out[off + j], px[done + j]);
        }
        for (int axis = rank - 2; axis >= 0; --axis) {
            const auto ax = static_cast<std::size_t>(axis);
            off += strides[ax];
            if (++counter[ax] < s[axis])
                break;
            off -= strides[ax] * s[axis];
            counter[ax] = 0;
        }
    }
}

} // namespace gradstep
