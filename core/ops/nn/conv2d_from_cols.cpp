// conv2d_from_cols (Conv2DFromCols): Conv2D computed from x's saved col matrices,
// y[n] = W (C_out, rows) * cols[n], for an x of shape input_size. Bilinear in (cols, w); for a
// cotangent G of y's shape:
//   dL/dcols = W^T G[n] per image              (colsGradient: BatchMatMul)
//   dL/dw    = Conv2DBackpropFilterFromCols(G, cols)
// Used by compiled graphs only (Note [Saved col matrices] in conv_cols_ops.h); NaN and Inf
// propagate as in Conv2D.
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/conv_cols_ops.h"
#include "ops/nn/conv_kernels.h"
#include "ops/nn/defs.h"

namespace gradstep {

namespace {
ConvGeometry geometryOf(const OpCall& call)
{
    const ConvGeometry g = colsGeometry(call, shapeAttr(call, "input_size", 4), call.input(1).shape());
    requireColsShape(call, 0, g);
    return g;
}

void inferConv2DFromCols(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    requireFloat(call, 1);
    requireSameDType(call, 0, 1);
    out.push_back({geometryOf(call).outputShape(), call.input(0).dtype()});
}

void forwardConv2DFromCols(const OpCall& call, std::span<Tensor> outputs)
{
    const ConvGeometry g = geometryOf(call);
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        convForwardFromCols<T>(g, call.input(0).data<T>(), call.input(1).data<T>(), outputs[0].data<T>());
    });
}

TensorList backwardConv2DFromCols(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& cols = ctx.input(0);
    const Tensor& w = ctx.input(1);
    const Shape input(ctx.attrs().getInts("input_size"));
    Tensor gcols = ctx.needsGrad(0) ? colsGradient(grads[0], w) : Tensor();
    Tensor gw = ctx.needsGrad(1) ? conv2dBackpropFilterFromColsWithAttrs(grads[0], cols, input, w.shape(), ctx.attrs())
                                 : Tensor();
    return {gcols, gw};
}
} // namespace

const OpDef kConv2DFromCols{"Conv2DFromCols", "conv2d_from_cols", OpKind::NN, 2, 2, inferConv2DFromCols,
                            forwardConv2DFromCols, backwardConv2DFromCols};

Tensor conv2dFromColsWithAttrs(const Tensor& cols, const Tensor& weight, const Shape& inputShape, const Attrs& attrs)
{
    Attrs picked = convAttrsOf(attrs);
    picked.set("input_size", inputShape.toVector());
    return callOp1(kConv2DFromCols, {cols, weight}, picked);
}

} // namespace gradstep
