// conv2d_backprop_input (Conv2DBackpropInput): the gradient of Conv2D with respect to its input,
// dx = C_w^T dy, where C_w is the linear map x -> conv2d(x, w) and input_size is x's shape
// (needed because several input sizes give the same output size when the stride is > 1).
// It is bilinear in (dy, w); for a cotangent G of dx's shape:
//   dL/d(dy) = conv2d(G, w)                      (the adjoint of the adjoint)
//   dL/dw    = Conv2DBackpropFilter(dy, G)       (<G, C_w^T dy> = <conv2d(G, w), dy>)
// Kernel: W^T * dy per image and group, folded back by col2im (Note [Conv2D as GEMM]).
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/conv_kernels.h"
#include "ops/nn/defs.h"
#include "ops/nn_ops.h"

namespace gradstep {

namespace {
void inferBackpropInput(const OpCall& call, SpecList& out) { inferConvBackprop(call, out, true); }

TensorList backwardBackpropInput(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& dy = ctx.input(0);
    const Tensor& w = ctx.input(1);
    Tensor gdy = ctx.needsGrad(0) ? conv2dWithAttrs(grads[0], w, ctx.attrs()) : Tensor();
    Tensor gw = ctx.needsGrad(1) ? conv2dBackpropFilterWithAttrs(dy, grads[0], w.shape(), ctx.attrs()) : Tensor();
    return {gdy, gw};
}
} // namespace

const OpDef kConv2DBackpropInput{"Conv2DBackpropInput", "conv2d_backprop_input", OpKind::NN, 2, 2,
                                 inferBackpropInput, forwardConvBackprop<true>, backwardBackpropInput};

Tensor conv2dBackpropInputWithAttrs(const Tensor& dy, const Tensor& weight, const Shape& inputShape,
                                    const Attrs& attrs)
{
    Attrs picked = convAttrsOf(attrs);
    picked.set("input_size", inputShape.toVector());
    return callOp1(kConv2DBackpropInput, {dy, weight}, picked);
}

Tensor conv2dBackpropInput(const Tensor& dy, const Tensor& weight, const std::vector<std::int64_t>& inputShape,
                           const Conv2dOptions& options)
{
    Attrs attrs = convAttrs(options);
    attrs.set("input_size", inputShape);
    return callOp1(kConv2DBackpropInput, {dy, weight}, attrs);
}

} // namespace gradstep
