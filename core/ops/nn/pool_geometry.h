// The window geometry shared by MaxPool, AvgPool and their gradient ops, and the loops over the
// windows. SPDX-License-Identifier: MIT
//
// Note [Pooling windows]: windows are clipped to the image, so under pad_mode "same" the padding
// is never read: a max is taken over the real elements only, and an average divides by the
// number of real elements in the window (padding is not counted, as TensorFlow and MindSpore's
// AvgPool do under "same"). No window is ever empty: "same" pads less than one kernel.
#pragma once

#include "ops/dispatch.h"
#include "ops/nn_ops.h"

#include <algorithm>
#include <cstdint>

namespace gradstep {

struct PoolGeometry {
    std::int64_t batch = 0, channels = 0, height = 0, width = 0;
    std::int64_t kernelH = 1, kernelW = 1, strideH = 1, strideW = 1;
    std::int64_t padTop = 0, padLeft = 0, outH = 0, outW = 0;

    std::int64_t planes() const { return batch * channels; }
    Shape inputShape() const { return {batch, channels, height, width}; }
    Shape outputShape() const { return {batch, channels, outH, outW}; }
};

/// Validates kernel_size, strides and pad_mode ("same" or "valid") for a 4-D NCHW input shape.
PoolGeometry poolGeometry(const OpCall& call, const Shape& input);
/// The attributes of MaxPool / AvgPool from the functional options.
Attrs poolAttrs(const Pool2dOptions& options);

/// Calls f(outIndex, rowBegin, rowEnd, colBegin, colEnd, planeOffset) for every window, with the
/// window clipped to the image (Note [Pooling windows]) and indices flat over the whole tensor.
template <class F> void forEachWindow(const PoolGeometry& g, F f)
{
    std::int64_t out = 0;
    for (std::int64_t p = 0; p < g.planes(); ++p) {
        const std::int64_t planeOffset = p * g.height * g.width;
        for (std::int64_t oh = 0; oh < g.outH; ++oh) {
            const std::int64_t top = oh * g.strideH - g.padTop;
            const std::int64_t h0 = std::max<std::int64_t>(top, 0), h1 = std::min(top + g.kernelH, g.height);
            for (std::int64_t ow = 0; ow < g.outW; ++ow, ++out) {
                const std::int64_t left = ow * g.strideW - g.padLeft;
                const std::int64_t w0 = std::max<std::int64_t>(left, 0), w1 = std::min(left + g.kernelW, g.width);
                f(out, h0, h1, w0, w1, planeOffset);
            }
        }
    }
}

/// Calls f(outIndex, inIndex) with the flat index of the FIRST maximum of each window in row-major
/// order (later equal values do not replace it); a NaN counts as the maximum, so NaN propagates.
template <class T, class F> void forEachArgmax(const PoolGeometry& g, const T* x, F f)
{
    forEachWindow(g, [&](std::int64_t out, std::int64_t h0, std::int64_t h1, std::int64_t w0, std::int64_t w1,
                         std::int64_t planeOffset) {
        const T* plane = x + planeOffset;
        std::int64_t best = h0 * g.width + w0;
        T bestValue = plane[best];
        for (std::int64_t h = h0; h < h1; ++h)
            for (std::int64_t w = w0; w < w1; ++w) {
                const T v = plane[h * g.width + w];
                if (v > bestValue || (v != v && bestValue == bestValue)) {
                    bestValue = v;
                    best = h * g.width + w;
                }
            }
        f(out, planeOffset + best);
    });
}

// The ops called with MaxPool / AvgPool's attributes, so the backward rules can chain them.
Tensor maxPoolWithAttrs(const Tensor& x, const Attrs& attrs);
Tensor maxPoolGradWithAttrs(const Tensor& x, const Tensor& dy, const Attrs& attrs);
Tensor maxPoolGradGradWithAttrs(const Tensor& x, const Tensor& g, const Attrs& attrs);
Tensor avgPoolWithAttrs(const Tensor& x, const Attrs& attrs);
Tensor avgPoolGradWithAttrs(const Tensor& dy, const Shape& inputShape, const Attrs& attrs);

} // namespace gradstep
