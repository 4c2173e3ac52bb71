// conv2d_with_cols (Conv2DWithCols): Conv2D that also returns x's col matrices,
// (y, cols) = (conv2d(x, w), Im2Col(x)), each image's matrix made and multiplied while it is in
// cache (Note [Saved col matrices] in conv_cols_ops.h). y is bilinear in (x, w) and cols linear in
// x; for cotangents Gy and Gcols:
//   dL/dx = Conv2DBackpropInput(Gy, w) + Col2Im(Gcols)
//   dL/dw = Conv2DBackpropFilterFromCols(Gy, cols)
// y equals Conv2D's bit for bit (the same GEMMs). Used by compiled graphs only.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/nn/common.h"
#include "ops/nn/conv_cols_ops.h"
#include "ops/nn/conv_kernels.h"
#include "ops/nn/defs.h"

namespace gradstep {

namespace {
ConvGeometry geometryOf(const OpCall& call)
{
    return colsGeometry(call, call.input(0).shape(), call.input(1).shape());
}

void inferConv2DWithCols(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    requireFloat(call, 1);
    requireSameDType(call, 0, 1);
    const ConvGeometry g = geometryOf(call);
    out.push_back({g.outputShape(), call.input(0).dtype()});
    out.push_back({colsShape(g), call.input(0).dtype()});
}

void forwardConv2DWithCols(const OpCall& call, std::span<Tensor> outputs)
{
    const ConvGeometry g = geometryOf(call);
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        convForwardSavingCols<T>(g, call.input(0).data<T>(), call.input(1).data<T>(), outputs[0].data<T>(),
                                 outputs[1].data<T>());
    });
}

TensorList backwardConv2DWithCols(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& x = ctx.input(0);
    const Tensor& w = ctx.input(1);
    Tensor gx, gw;
    if (ctx.needsGrad(0))
        gx = add(conv2dBackpropInputWithAttrs(grads[0], w, x.shape(), ctx.attrs()),
                 col2imWithAttrs(grads[1], x.shape(), w.shape(), ctx.attrs()));
    if (ctx.needsGrad(1))
        gw = conv2dBackpropFilterFromColsWithAttrs(grads[0], ctx.output(1), x.shape(), w.shape(), ctx.attrs());
    return {gx, gw};
}
} // namespace

const OpDef kConv2DWithCols{"Conv2DWithCols", "conv2d_with_cols", OpKind::NN, 2, 2, inferConv2DWithCols,
                            forwardConv2DWithCols, backwardConv2DWithCols};

std::pair<Tensor, Tensor> conv2dWithColsWithAttrs(const Tensor& x, const Tensor& weight, const Attrs& attrs)
{
    const Tensor inputs[] = {x, weight};
    OutputList outputs = callOp(kConv2DWithCols, inputs, convAttrsOf(attrs));
    return {outputs[0], outputs[1]};
}

} // namespace gradstep
