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
#include <cmath>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

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
/// MaxPoolGrad-style ops (x, dy): the geometry of x, checking that dy has the pooled shape.
PoolGeometry maxPoolGradGeometry(const OpCall& call);
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

/// Window maxima one output row at a time, so the inner loops run across independent outputs (a
/// row of windows) instead of along one window's dependency chain, and take no data-dependent
/// branches (which element wins is unpredictable).
template <class T> class MaxPoolRows {
public:
    explicit MaxPoolRows(const PoolGeometry& g);

    /// Calls f(firstOutIndex, maxima, argmax, planeOffset) per output row; argmax holds the index
    /// within the plane of the FIRST maximum of each window in row-major order (only when
    /// `withArgmax`). A NaN in a window is its maximum.
    template <class F> void run(const T* x, bool withArgmax, F f)
    {
        std::int64_t out = 0;
        for (std::int64_t p = 0; p < m_g.planes(); ++p) {
            const std::int64_t planeOffset = p * m_g.height * m_g.width;
            for (std::int64_t oh = 0; oh < m_g.outH; ++oh, out += m_g.outW) {
                const std::int64_t top = oh * m_g.strideH - m_g.padTop;
                const std::int64_t h0 = std::max<std::int64_t>(top, 0);
                const std::int64_t h1 = std::min(top + m_g.kernelH, m_g.height);
                rowMax(x + planeOffset, h0, h1);
                if (withArgmax)
                    rowArgmax(x + planeOffset, h0, h1);
                f(out, m_max.data(), m_arg.data(), planeOffset);
            }
        }
    }

private:
    // With v = plane[base + ow * stride] for ow in [begin, end): mx[ow] = max(mx[ow], v), sum[ow] += v.
    template <int Stride>
    static void maxRun(const T* plane, std::int64_t base, std::int64_t stride, std::int64_t begin, std::int64_t end,
                       T* mx, T* sum)
    {
        const std::int64_t step = Stride > 0 ? Stride : stride;
        for (std::int64_t ow = begin; ow < end; ++ow) {
            const T v = plane[base + ow * step];
            mx[ow] = v > mx[ow] ? v : mx[ow];
            sum[ow] += v;
        }
    }

    void rowMax(const T* plane, std::int64_t h0, std::int64_t h1);
    void rowArgmax(const T* plane, std::int64_t h0, std::int64_t h1);
    bool windowHasNaN(const T* plane, std::int64_t h0, std::int64_t h1, std::int64_t ow) const;

    PoolGeometry m_g;
    // Per kernel column kw: outputs [m_begin, m_end) read input column ow * strideW + m_offset.
    std::vector<std::int64_t> m_begin, m_end, m_offset;
    std::vector<T> m_max, m_sum;
    std::vector<std::int32_t> m_arg;
    bool m_rowHasNaN = false;
};

template <class T>
MaxPoolRows<T>::MaxPoolRows(const PoolGeometry& g)
    : m_g(g), m_max(static_cast<std::size_t>(g.outW)), m_sum(static_cast<std::size_t>(g.outW)),
      m_arg(static_cast<std::size_t>(g.outW))
{
    for (std::int64_t kw = 0; kw < g.kernelW; ++kw) {
        const std::int64_t offset = kw - g.padLeft;
        const std::int64_t begin = std::min(offset >= 0 ? 0 : (-offset + g.strideW - 1) / g.strideW, g.outW);
        const std::int64_t end = g.width - offset <= 0 ? 0 : (g.width - offset + g.strideW - 1) / g.strideW;
        m_begin.push_back(begin);
        m_end.push_back(std::clamp(end, begin, g.outW));
        m_offset.push_back(offset);
    }
}

template <class T> void MaxPoolRows<T>::rowMax(const T* plane, std::int64_t h0, std::int64_t h1)
{
    T* mx = m_max.data();
    T* sum = m_sum.data();
    std::fill(m_max.begin(), m_max.end(), -std::numeric_limits<T>::infinity());
    std::fill(m_sum.begin(), m_sum.end(), T(0));
    for (std::int64_t h = h0; h < h1; ++h)
        for (std::size_t kw = 0; kw < m_offset.size(); ++kw) {
            const std::int64_t base = h * m_g.width + m_offset[kw];
            // Constant strides let the compiler vectorise the common cases.
            if (m_g.strideW == 1)
                maxRun<1>(plane, base, 1, m_begin[kw], m_end[kw], mx, sum);
            else if (m_g.strideW == 2)
                maxRun<2>(plane, base, 2, m_begin[kw], m_end[kw], mx, sum);
            else
                maxRun<0>(plane, base, m_g.strideW, m_begin[kw], m_end[kw], mx, sum);
        }
    // `v > m ? v : m` skips NaN; a NaN sum flags the windows that may hold one.
    m_rowHasNaN = false;
    for (std::int64_t ow = 0; ow < m_g.outW; ++ow)
        if (std::isnan(sum[ow]) && windowHasNaN(plane, h0, h1, ow)) {
            mx[ow] = std::numeric_limits<T>::quiet_NaN();
            m_rowHasNaN = true;
        }
}

template <class T>
bool MaxPoolRows<T>::windowHasNaN(const T* plane, std::int64_t h0, std::int64_t h1, std::int64_t ow) const
{
    const std::int64_t left = ow * m_g.strideW - m_g.padLeft;
    const std::int64_t w0 = std::max<std::int64_t>(left, 0), w1 = std::min(left + m_g.kernelW, m_g.width);
    for (std::int64_t h = h0; h < h1; ++h)
        for (std::int64_t w = w0; w < w1; ++w)
            if (std::isnan(plane[h * m_g.width + w]))
                return true;
    return false;
}

// Scans the window positions backwards: the last match written is the first in row-major order.
// In-plane indices are int32 so that the select vectorises alongside the float comparison.
template <class T> void MaxPoolRows<T>::rowArgmax(const T* plane, std::int64_t h0, std::int64_t h1)
{
    const T* mx = m_max.data();
    std::int32_t* arg = m_arg.data();
    const auto stride = static_cast<std::int32_t>(m_g.strideW);
    for (std::int64_t h = h1 - 1; h >= h0; --h)
        for (std::size_t kw = m_offset.size(); kw-- > 0;) {
            const auto base = static_cast<std::int32_t>(h * m_g.width + m_offset[kw]);
            const auto begin = static_cast<std::int32_t>(m_begin[kw]), end = static_cast<std::int32_t>(m_end[kw]);
            if (m_rowHasNaN)
                for (std::int32_t ow = begin; ow < end; ++ow) {
                    const T v = plane[base + ow * stride];
                    arg[ow] = v == mx[ow] || (v != v && mx[ow] != mx[ow]) ? base + ow * stride : arg[ow];
                }
            else
                for (std::int32_t ow = begin; ow < end; ++ow)
                    arg[ow] = plane[base + ow * stride] == mx[ow] ? base + ow * stride : arg[ow];
        }
}

// The ops called with MaxPool / AvgPool's attributes, so the backward rules can chain them.
Tensor maxPoolWithAttrs(const Tensor& x, const Attrs& attrs);
Tensor maxPoolGradWithAttrs(const Tensor& x, const Tensor& dy, const Attrs& attrs);
Tensor maxPoolGradGradWithAttrs(const Tensor& x, const Tensor& g, const Attrs& attrs);
Tensor maxPoolReluGradWithAttrs(const Tensor& y, const Tensor& dy, const Attrs& attrs);
Tensor avgPoolWithAttrs(const Tensor& x, const Attrs& attrs);
Tensor avgPoolGradWithAttrs(const Tensor& dy, const Shape& inputShape, const Attrs& attrs);

} // namespace gradstep
