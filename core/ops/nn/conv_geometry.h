// The geometry of a 2-D convolution shared by Conv2D and its two backprop ops (the copies are in
// conv_cols.h, the GEMM drivers in conv_kernels.h). SPDX-License-Identifier: MIT
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

#include <cstdint>

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
/// Conv2D's own attributes (stride, pad_mode, pad, dilation, group) out of a larger set, e.g. a
/// backprop op's, which adds input_size or filter_size.
Attrs convAttrsOf(const Attrs& attrs);

// The three ops called with Conv2D's attributes (the backprop ops add input_size / filter_size),
// so each backward rule can call the others with the attributes it was given.
Tensor conv2dWithAttrs(const Tensor& x, const Tensor& weight, const Attrs& attrs);
Tensor conv2dBackpropInputWithAttrs(const Tensor& dy, const Tensor& weight, const Shape& inputShape,
                                    const Attrs& attrs);
Tensor conv2dBackpropFilterWithAttrs(const Tensor& dy, const Tensor& x, const Shape& filterShape,
                                     const Attrs& attrs);

} // namespace gradstep
