// conv2d_backprop_filter_from_cols (Conv2DBackpropFilterFromCols): Conv2DBackpropFilter computed
// from x's saved col matrices, dw = sum_n dy[n] * cols[n]^T, reshaped to filter_size. Bilinear in
// (dy, cols); for a cotangent G of dw's shape:
//   dL/d(dy)   = Conv2DFromCols(cols, G)
//   dL/dcols   = G^T dy[n] per image           (colsGradient: BatchMatMul)
// Used by compiled graphs only (Note [Saved col matrices] in conv_cols_ops.h).
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/conv_cols_ops.h"
#include "ops/nn/conv_kernels.h"
#include "ops/nn/defs.h"

namespace gradstep {

namespace {
ConvGeometry geometryOf(const OpCall& call)
{
    const ConvGeometry g = colsGeometry(call, shapeAttr(call, "input_size", 4), shapeAttr(call, "filter_size", 4));
    requireOutputShape(call, g, call.input(0).shape());
    requireColsShape(call, 1, g);
    return g;
}

void inferFilterFromCols(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    requireFloat(call, 1);
    requireSameDType(call, 0, 1);
    out.push_back({geometryOf(call).weightShape(), call.input(0).dtype()});
}

void forwardFilterFromCols(const OpCall& call, std::span<Tensor> outputs)
{
    const ConvGeometry g = geometryOf(call);
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        convBackpropFilterFromCols<T>(g, call.input(0).data<T>(), call.input(1).data<T>(), outputs[0].data<T>());
    });
}

TensorList backwardFilterFromCols(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& dy = ctx.input(0);
    const Tensor& cols = ctx.input(1);
    const Shape input(ctx.attrs().getInts("input_size"));
    Tensor gdy = ctx.needsGrad(0) ? conv2dFromColsWithAttrs(cols, grads[0], input, ctx.attrs()) : Tensor();
    Tensor gcols = ctx.needsGrad(1) ? colsGradient(dy, grads[0]) : Tensor();
    return {gdy, gcols};
}
} // namespace

const OpDef kConv2DBackpropFilterFromCols{"Conv2DBackpropFilterFromCols", "conv2d_backprop_filter_from_cols",
                                          OpKind::NN, 2, 2, inferFilterFromCols, forwardFilterFromCols,
                                          backwardFilterFromCols};

Tensor conv2dBackpropFilterFromColsWithAttrs(const Tensor& dy, const Tensor& cols, const Shape& inputShape,
                                             const Shape& filterShape, const Attrs& attrs)
{
    Attrs picked = convAttrsOf(attrs);
    picked.set("input_size", inputShape.toVector()).set("filter_size", filterShape.toVector());
    return callOp1(kConv2DBackpropFilterFromCols, {dy, cols}, picked);
}

} // namespace gradstep
