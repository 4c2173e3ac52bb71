// conv2d (Conv2D): NCHW cross-correlation of x (N, C_in, H, W) with w (C_out, C_in/group, kH, kW):
//   y[n, o, i, j] = sum_{c, p, q} x[n, g(o)*C_in/group + c, i*sH - pad_top + p*dH, j*sW - pad_left + q*dW]
//                                 * w[o, c, p, q]      (x is 0 outside the image)
// pad_mode "valid": no padding; "pad": explicit (top, bottom, left, right); "same": H_out =
// ceil(H / sH) with the odd padding row/column at the bottom/right (MindSpore's rule for pooling,
// assumed for convolution too).
//   dL/dx = Conv2DBackpropInput(dL/dy, w)   (the transposed convolution)
//   dL/dw = Conv2DBackpropFilter(dL/dy, x)
// Both are registered ops with their own backward rules, so grad of grad works. The kernel is
// im2col + one GEMM per image and group (Note [Conv2D as GEMM]). NaN and Inf propagate through the
// sums as IEEE arithmetic does (Inf times a zero weight gives NaN).
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/conv_kernels.h"
#include "ops/nn/defs.h"
#include "ops/nn_ops.h"

namespace gradstep {

namespace {
void inferConv2D(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    requireFloat(call, 1);
    requireSameDType(call, 0, 1);
    const ConvGeometry g = convGeometry(call, call.input(0).shape(), call.input(1).shape());
    out.push_back({g.outputShape(), call.input(0).dtype()});
}

void forwardConv2D(const OpCall& call, std::span<Tensor> outputs)
{
    const ConvGeometry g = convGeometry(call, call.input(0).shape(), call.input(1).shape());
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        convForward<T>(g, call.input(0).data<T>(), call.input(1).data<T>(), outputs[0].data<T>());
    });
}

TensorList backwardConv2D(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    Tensor gx = ctx.needsGrad(0) ? conv2dBackpropInputWithAttrs(grads[0], w, x.shape(), ctx.attrs()) : Tensor();
    Tensor gw = ctx.needsGrad(1) ? conv2dBackpropFilterWithAttrs(grads[0], x, w.shape(), ctx.attrs()) : Tensor();
    return {gx, gw};
}
} // namespace

const OpDef kConv2D{"Conv2D", "conv2d", OpKind::NN, 2, 2, inferConv2D, forwardConv2D, backwardConv2D};

Tensor conv2dWithAttrs(const Tensor& x, const Tensor& weight, const Attrs& attrs)
{
    return callOp1(kConv2D, {x, weight}, convAttrsOf(attrs));
}

Tensor conv2d(const Tensor& x, const Tensor& weight, const Conv2dOptions& options)
{
    return callOp1(kConv2D, {x, weight}, convAttrs(options));
}

} // namespace gradstep
