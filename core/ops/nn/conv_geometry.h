// The geometry of a 2-D convolution and the im2col / col2im copies shared by Conv2D and its two
// backprop ops. SPDX-License-Identifier: MIT
//
// Note [Conv2D as GEMM]: for each image n and group g, the receptive fields of the input are
// copied into a contiguous (C_in/group * kH * kW, H_out * W_out) buffer ("col"), so that
//   forward          y[n, g]  = W[g] (C_out/group, K) * col
//   input gradient   col      = W[g]^T * dy[n, g], then col2im adds col back into dx[n, g]
//   filter gradient  dW[g]   += dy[n, g] * col^T
// are one GEMM each. One buffer serves every image and group of a call. A 1x1 kernel with stride 1
// and no padding needs no copy: the image itself is the col matrix.
#pragma once

#include "ops/dispatch.h"
#include "ops/nn_ops.h"
#include "tensor/gemm.h"

#include <algorithm>
#include <cstdint>
#include <memory>

namespace gradstep {

struct ConvGeometry {
    std::int64_t batch = 0, inChannels = 0, height = 0, width = 0;
    std::int64_t outChannels = 0, kernelH = 0, kernelW = 0;
    std::int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
    std::int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
    std::int64_t outH = 0, outW = 0, group = 1;

    std::int64_t groupIn() const { return inChannels / group; }
    std::int64_t groupOut() const { return outChannels / group; }
    std::int64_t colRows() const { return groupIn() * kernelH * kernelW; }
    std::int64_t colCols() const { return outH * outW; }
    Shape inputShape() const { return {batch, inChannels, height, width}; }
    Shape weightShape() const { return {outChannels, groupIn(), kernelH, kernelW}; }
    Shape outputShape() const { return {batch, outChannels, outH, outW}; }
    bool directCol() const
    {
        return kernelH == 1 && kernelW == 1 && strideH == 1 && strideW == 1 && padTop == 0 && padBottom == 0
               && padLeft == 0 && padRight == 0;
    }
};

/// Validates the attributes (stride, pad_mode, pad, dilation, group) against an input of shape
/// `input` (N, C_in, H, W) and a weight of shape `weight` (C_out, C_in/group, kH, kW); errors name
/// both shapes.
ConvGeometry convGeometry(const OpCall& call, const Shape& input, const Shape& weight);
/// ShapeError unless the gradient of the output has the shape the geometry gives.
void requireOutputShape(const OpCall& call, const ConvGeometry& g, const Shape& dy);
/// The geometry of Conv2DBackpropInput (ForInput) or Conv2DBackpropFilter: input 1 is the weight
/// or the input, the `input_size` or `filter_size` attribute gives the other shape, and dy
/// (input 0) must have the output shape.
ConvGeometry backpropGeometry(const OpCall& call, bool forInput);
/// Shape rule of the two backprop ops: dy and input 1 float and of one dtype; the output has
/// the input's (forInput) or the weight's shape.
void inferConvBackprop(const OpCall& call, SpecList& out, bool forInput);

/// The attributes of Conv2D from the functional options.
Attrs convAttrs(const Conv2dOptions& options);

// The three ops called with Conv2D's attributes (the backprop ops add input_size / filter_size),
// so each backward rule can call the others with the attributes it was given.
Tensor conv2dWithAttrs(const Tensor& x, const Tensor& weight, const Attrs& attrs);
Tensor conv2dBackpropInputWithAttrs(const Tensor& dy, const Tensor& weight, const Shape& inputShape,
                                    const Attrs& attrs);
Tensor conv2dBackpropFilterWithAttrs(const Tensor& dy, const Tensor& x, const Shape& filterShape,
                                     const Attrs& attrs);

namespace conv_detail {
// First and one-past-last output column whose input column ow * stride + offset lies in [0, width).
inline void validRange(std::int64_t offset, std::int64_t stride, std::int64_t width, std::int64_t outW,
                       std::int64_t& begin, std::int64_t& end)
{
    begin = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
    end = width - offset <= 0 ? 0 : (width - offset + stride - 1) / stride;
    begin = std::min(begin, outW);
    end = std::clamp(end, begin, outW);
}
// dst[i] = src[i] for i < n. The buffers never overlap; saying so lets the compiler turn the loop
// into one memmove, faster than the scalar loop for rows of 16 elements or more.
template <class T> inline void copyRun(const T* __restrict src, T* __restrict dst, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i)
        dst[i] = src[i];
}
} // namespace conv_detail

/// Copies the receptive fields of one image group (C_in/group planes) into col, zeros where
/// a field reaches into the padding.
template <class T> void im2col(const ConvGeometry& g, const T* image, T* col)
{
    const std::int64_t cols = g.colCols();
    for (std::int64_t c = 0; c < g.groupIn(); ++c) {
        const T* plane = image + c * g.height * g.width;
        for (std::int64_t kh = 0; kh < g.kernelH; ++kh)
            for (std::int64_t kw = 0; kw < g.kernelW; ++kw) {
                T* row = col + ((c * g.kernelH + kh) * g.kernelW + kw) * cols;
                const std::int64_t offW = kw * g.dilationW - g.padLeft;
                std::int64_t begin = 0, end = 0;
                conv_detail::validRange(offW, g.strideW, g.width, g.outW, begin, end);
                for (std::int64_t oh = 0; oh < g.outH; ++oh) {
                    T* out = row + oh * g.outW;
                    const std::int64_t ih = oh * g.strideH - g.padTop + kh * g.dilationH;
                    if (ih < 0 || ih >= g.height) {
                        for (std::int64_t ow = 0; ow < g.outW; ++ow)
                            out[ow] = T(0);
                        continue;
                    }
                    // Index arithmetic, not pointers: offW may point before the row.
                    const std::int64_t base = ih * g.width + offW;
                    // Plain loops: the rows are short, where a memcpy call costs more than the copy.
                    for (std::int64_t ow = 0; ow < begin; ++ow)
                        out[ow] = T(0);
                    // Long rows: one memmove (copyRun); short ones: a plain loop beats the call.
                    if (g.strideW == 1 && end - begin >= 16)
                        conv_detail::copyRun(plane + base + begin, out + begin, end - begin);
                    else if (g.strideW == 1)
                        for (std::int64_t ow = begin; ow < end; ++ow)
                            out[ow] = plane[base + ow];
                    else
                        for (std::int64_t ow = begin; ow < end; ++ow)
                            out[ow] = plane[base + ow * g.strideW];
                    for (std::int64_t ow = end; ow < g.outW; ++ow)
                        out[ow] = T(0);
                }
            }
    }
}

/// The adjoint of im2col: adds every entry of col back into the image position it was copied from.
template <class T> void col2imAdd(const ConvGeometry& g, const T* col, T* image)
{
    const std::int64_t cols = g.colCols();
    for (std::int64_t c = 0; c < g.groupIn(); ++c) {
        T* plane = image + c * g.height * g.width;
        for (std::int64_t kh = 0; kh < g.kernelH; ++kh)
            for (std::int64_t kw = 0; kw < g.kernelW; ++kw) {
                const T* row = col + ((c * g.kernelH + kh) * g.kernelW + kw) * cols;
                const std::int64_t offW = kw * g.dilationW - g.padLeft;
                std::int64_t begin = 0, end = 0;
                conv_detail::validRange(offW, g.strideW, g.width, g.outW, begin, end);
                for (std::int64_t oh = 0; oh < g.outH; ++oh) {
                    const std::int64_t ih = oh * g.strideH - g.padTop + kh * g.dilationH;
                    if (ih < 0 || ih >= g.height)
                        continue;
                    const T* in = row + oh * g.outW;
                    const std::int64_t base = ih * g.width + offW;
                    for (std::int64_t ow = begin; ow < end; ++ow)
                        plane[base + ow * g.strideW] += in[ow];
                }
            }
    }
}

/// The col scratch buffer of one call, uninitialised (im2col writes every entry); none when the
/// image itself serves as the col matrix.
template <class T> std::unique_ptr<T[]> colBuffer(const ConvGeometry& g)
{
    if (g.directCol())
        return nullptr;
    return std::make_unique_for_overwrite<T[]>(static_cast<std::size_t>(g.colRows() * g.colCols()));
}

/// The col matrix of one image group: the image itself when directCol(), else its im2col copy.
template <class T> const T* colOf(const ConvGeometry& g, const T* image, T* buffer)
{
    if (g.directCol())
        return image;
    im2col(g, image, buffer);
    return buffer;
}

/// y = conv(x, w): one im2col and one GEMM per image and group.
template <class T> void convForward(const ConvGeometry& g, const T* x, const T* w, T* y)
{
    const std::int64_t rows = g.colRows(), cols = g.colCols();
    const auto buffer = colBuffer<T>(g);
    for (std::int64_t n = 0; n < g.batch; ++n)
        for (std::int64_t grp = 0; grp < g.group; ++grp) {
            const T* image = x + (n * g.inChannels + grp * g.groupIn()) * g.height * g.width;
            const T* col = colOf(g, image, buffer.get());
            T* out = y + (n * g.outChannels + grp * g.groupOut()) * cols;
            gemm<T>(false, false, g.groupOut(), cols, rows, T(1), w + grp * g.groupOut() * rows, rows, col, cols,
                    T(0), out, cols);
        }
}

/// dx = conv^T(dy, w): W^T * dy per image and group, folded back by col2im.
template <class T> void convBackpropInput(const ConvGeometry& g, const T* dy, const T* w, T* dx)
{
    const std::int64_t rows = g.colRows(), cols = g.colCols();
    const auto buffer = colBuffer<T>(g);
    if (!g.directCol())
        std::fill(dx, dx + g.inputShape().numel(), T(0));
    for (std::int64_t n = 0; n < g.batch; ++n)
        for (std::int64_t grp = 0; grp < g.group; ++grp) {
            T* image = dx + (n * g.inChannels + grp * g.groupIn()) * g.height * g.width;
            T* col = g.directCol() ? image : buffer.get();
            const T* grad = dy + (n * g.outChannels + grp * g.groupOut()) * cols;
            gemm<T>(true, false, rows, cols, g.groupOut(), T(1), w + grp * g.groupOut() * rows, rows, grad, cols,
                    T(0), col, cols);
            if (!g.directCol())
                col2imAdd(g, col, image);
        }
}

/// dW = sum over images of dy * col^T, per group.
template <class T> void convBackpropFilter(const ConvGeometry& g, const T* dy, const T* x, T* dw)
{
    const std::int64_t rows = g.colRows(), cols = g.colCols();
    const auto buffer = colBuffer<T>(g);
    std::fill(dw, dw + g.weightShape().numel(), T(0));
    for (std::int64_t n = 0; n < g.batch; ++n)
        for (std::int64_t grp = 0; grp < g.group; ++grp) {
            const T* image = x + (n * g.inChannels + grp * g.groupIn()) * g.height * g.width;
            const T* col = colOf(g, image, buffer.get());
            const T* grad = dy + (n * g.outChannels + grp * g.groupOut()) * cols;
            gemm<T>(false, true, g.groupOut(), rows, cols, T(1), grad, cols, col, cols, T(1),
                    dw + grp * g.groupOut() * rows, rows);
        }
}

/// Forward kernel of Conv2DBackpropInput (ForInput) and Conv2DBackpropFilter.
template <bool ForInput> void forwardConvBackprop(const OpCall& call, std::span<Tensor> outputs)
{
    const ConvGeometry g = backpropGeometry(call, ForInput);
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* dy = call.input(0).data<T>();
        const T* operand = call.input(1).data<T>();
        if constexpr (ForInput)
            convBackpropInput<T>(g, dy, operand, outputs[0].data<T>());
        else
            convBackpropFilter<T>(g, dy, operand, outputs[0].data<T>());
    });
}

} // namespace gradstep
