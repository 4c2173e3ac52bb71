// Shared machinery of the reductions: axis normalisation, shape rule and the reduction loop.
// SPDX-License-Identifier: MIT
#pragma once

#include "ops/dispatch.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
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
/// How many input elements fold into each output element (0 when a reduced axis is empty).
std::int64_t reducedCount(const Shape& in, const std::array<bool, Shape::kMaxRank>& reduced);

/// For backward rules: x's shape with the axes a node reduced kept as 1, from the node's attributes.
std::vector<std::int64_t> keptDims(const Tensor& x, const Attrs& attrs, std::string_view op);
/// The `axis` attribute as a list (empty: all axes) for reduceSum calls in backward rules.
std::vector<std::int64_t> axisList(const Attrs& attrs);

/// Forward kernel of reduce_max (Max = true) and reduce_min: NaN wins, as in NumPy.
template <bool Max> void forwardExtremum(const OpCall& call, std::span<Tensor> outputs);
/// Shape rule of reduce_max/min: inferReduce, plus a ValueError for an empty reduction, which
/// has no identity.
void inferExtremum(const OpCall& call, SpecList& out);
/// Gradient of reduce_max/min: grad / (number of tied extrema) at each extremum, 0 elsewhere.
Tensor extremumGrad(const BackwardContext& ctx, const Tensor& grad, std::string_view op);

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

/// Shape rule of argmax/argmin: `axis` (one int) removed or kept as 1, Int32 out; Bool is a
/// DTypeError and an empty axis with a non-empty result a ValueError.
void inferArgExtremum(const OpCall& call, SpecList& out);

/// Index of the first maximum (Max = true) or minimum along the `axis` attribute; NaN beats any
/// number, so the first NaN wins, as in NumPy.
template <bool Max> void forwardArgExtremum(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    std::int32_t* po = static_cast<std::int32_t*>(outputs[0].rawData());
    if (x.rank() == 0) {
        po[0] = 0;
        return;
    }
    const int axis = normalizeAxis(call.attrs.getInt("axis", -1), x.rank(), call.op.name);
    std::int64_t outer = 1, inner = 1;
    for (int a = 0; a < axis; ++a)
        outer *= x.shape()[a];
    for (int a = axis + 1; a < x.rank(); ++a)
        inner *= x.shape()[a];
    const std::int64_t dim = x.shape()[axis];
    if (dim == 0)
        return;
    visitDType(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* px = static_cast<const T*>(x.rawData());
        for (std::int64_t o = 0; o < outer; ++o)
            for (std::int64_t i = 0; i < inner; ++i) {
                const T* lane = px + o * dim * inner + i;
                T best = lane[0];
                std::int32_t at = 0;
                for (std::int64_t d = 1; d < dim; ++d) {
                    const T v = lane[d * inner];
                    bool better = Max ? v > best : v < best;
                    if constexpr (std::numeric_limits<T>::has_quiet_NaN)
                        better = better || (std::isnan(v) && !std::isnan(best));
                    if (better) {
                        best = v;
                        at = static_cast<std::int32_t>(d);
                    }
                }
                po[o * inner + i] = at;
            }
    });
}

template <bool Max> void forwardExtremum(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    Tensor& out = outputs[0];
    const auto reduced = reducedAxes(call, x);
    visitDType(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        T* po = static_cast<T*>(out.rawData());
        const T init = std::numeric_limits<T>::has_infinity
                           ? (Max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity())
                           : (Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max());
        for (std::int64_t i = 0, n = out.numel(); i < n; ++i)
            po[i] = init;
        reduceInto<T>(x, reduced, po, [](T acc, T v) {
            const bool better = Max ? v > acc : v < acc;
            if constexpr (std::numeric_limits<T>::has_quiet_NaN)
                return better || std::isnan(v) ? v : acc;
            else
                return better ? v : acc;
        });
    });
}

} // namespace gradstep
