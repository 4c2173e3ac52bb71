// conv2d_backprop_filter (Conv2DBackpropFilter): the gradient of Conv2D with respect to its
// weight, dw = sum_n dy[n] * col(x[n])^T, with filter_size the weight's shape. It is bilinear in
// (dy, x); for a cotangent G of dw's shape:
//   dL/d(dy) = conv2d(x, G)                        (<G, dw> = <conv2d(x, G), dy>)
//   dL/dx    = Conv2DBackpropInput(dy, G)
// Kernel: im2col and one accumulating GEMM per image and group (Note [Conv2D as GEMM]).
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/conv_kernels.h"
#include "ops/nn/defs.h"
#include "ops/nn_ops.h"

namespace gradstep {

namespace {
void inferBackpropFilter(const OpCall& call, SpecList& out) { inferConvBackprop(call, out, false); }

TensorList backwardBackpropFilter(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& dy = ctx.input(0);
    const Tensor& x = ctx.input(1);
    Tensor gdy = ctx.needsGrad(0) ? conv2dWithAttrs(x, grads[0], ctx.attrs()) : Tensor();
    Tensor gx = ctx.needsGrad(1) ? conv2dBackpropInputWithAttrs(dy, grads[0], x.shape(), ctx.attrs()) : Tensor();
    return {gdy, gx};
}
} // namespace

const OpDef kConv2DBackpropFilter{"Conv2DBackpropFilter", "conv2d_backprop_filter", OpKind::NN, 2, 2,
                                  inferBackpropFilter, forwardConvBackprop<false>, backwardBackpropFilter};

Tensor conv2dBackpropFilterWithAttrs(const Tensor& dy, const Tensor& x, const Shape& filterShape,
                                     const Attrs& attrs)
{
    Attrs picked = convAttrsOf(attrs);
    picked.set("filter_size", filterShape.toVector());
    return callOp1(kConv2DBackpropFilter, {dy, x}, picked);
}

Tensor conv2dBackpropFilter(const Tensor& dy, const Tensor& x, const std::vector<std::int64_t>& filterShape,
                            const Conv2dOptions& options)
{
    Attrs attrs = convAttrs(options);
    attrs.set("filter_size", filterShape);
    return callOp1(kConv2DBackpropFilter, {dy, x}, attrs);
}

} // namespace gradstep
