// The ops over a batch's saved col matrices (Conv2DWithCols, Im2Col, Col2Im, Conv2DFromCols,
// Conv2DBackpropFilterFromCols). SPDX-License-Identifier: MIT
//
// Note [Saved col matrices]: Conv2D and Conv2DBackpropFilter both copy every receptive field of
// x into col matrices (im2col, Note [Conv2D as GEMM]); in a training step that copy is made twice
// per layer, once in the forward pass and once for the weight's gradient. A compiled graph sees
// both uses of x, so the conv_cols_reuse pass makes the copy once and keeps it as a tensor
//   y, cols = Conv2DWithCols(x, w)        cols (N, rows, H_out * W_out), rows = C_in * kH * kW
//   dw      = Conv2DBackpropFilterFromCols(dy, cols)
// trading the cols' memory (kept from the forward pass to the backward one) for the second copy.
// Conv2DWithCols multiplies each image's matrix while it is still in cache; Im2Col, Col2Im and
// Conv2DFromCols are the pieces the backward rules of these ops are written with.
// The GEMMs are the same calls as Conv2D's and Conv2DBackpropFilter's, so the results are
// identical bit for bit. PyNative does not keep the matrices: it cannot know whether a gradient
// will follow, and a model's cols are many times its activations.
//
// The ops take Conv2D's attributes plus input_size (x's shape) and, where no operand gives it,
// filter_size (w's shape). They support group 1 only: their backward rules contract the whole
// weight with BatchMatMul, and the pass leaves grouped convolutions alone.
#pragma once

#include "ops/nn/conv_geometry.h"

#include <utility>

namespace gradstep {

/// The geometry of x of shape `input` and w of shape `weight`; ValueError unless group is 1.
ConvGeometry colsGeometry(const OpCall& call, const Shape& input, const Shape& weight);
/// The shape of a batch's col matrices: (N, rows, H_out * W_out).
Shape colsShape(const ConvGeometry& g);
/// ShapeError unless operand `i` has the col matrices' shape.
void requireColsShape(const OpCall& call, std::size_t i, const ConvGeometry& g);

/// (conv2d(x, w), Im2Col(x)) in one pass over the images.
std::pair<Tensor, Tensor> conv2dWithColsWithAttrs(const Tensor& x, const Tensor& weight, const Attrs& attrs);
Tensor im2colWithAttrs(const Tensor& x, const Shape& filterShape, const Attrs& attrs);
Tensor col2imWithAttrs(const Tensor& cols, const Shape& inputShape, const Shape& filterShape, const Attrs& attrs);
Tensor conv2dFromColsWithAttrs(const Tensor& cols, const Tensor& weight, const Shape& inputShape,
                               const Attrs& attrs);
Tensor conv2dBackpropFilterFromColsWithAttrs(const Tensor& dy, const Tensor& cols, const Shape& inputShape,
                                             const Shape& filterShape, const Attrs& attrs);
/// The gradient of Conv2DFromCols for its cols: w^T dy for every image, (N, rows, H_out * W_out).
Tensor colsGradient(const Tensor& dy, const Tensor& weight);

} // namespace gradstep
