// im2col (Im2Col): the col matrices of a batch, cols[n, (c * kH + p) * kW + q, i * W_out + j] =
// x[n, c, i * sH - pad_top + p * dH, j * sW - pad_left + q * dW] (0 in the padding), for the
// convolution that Conv2D's attributes and filter_size describe. It is linear and copies each
// value (NaN and Inf too); its adjoint adds every entry back where it came from:
//   dL/dx = Col2Im(G)
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
    return colsGeometry(call, call.input(0).shape(), shapeAttr(call, "filter_size", 4));
}

void inferIm2Col(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    out.push_back({colsShape(geometryOf(call)), call.input(0).dtype()});
}

void forwardIm2Col(const OpCall& call, std::span<Tensor> outputs)
{
    const ConvGeometry g = geometryOf(call);
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        im2colBatch<T>(g, call.input(0).data<T>(), outputs[0].data<T>());
    });
}

TensorList backwardIm2Col(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Shape filter = Shape(ctx.attrs().getInts("filter_size"));
    return {col2imWithAttrs(grads[0], ctx.input(0).shape(), filter, ctx.attrs())};
}
} // namespace

const OpDef kIm2Col{"Im2Col", "im2col", OpKind::NN, 1, 1, inferIm2Col, forwardIm2Col, backwardIm2Col};

Tensor im2colWithAttrs(const Tensor& x, const Shape& filterShape, const Attrs& attrs)
{
    Attrs picked = convAttrsOf(attrs);
    picked.set("filter_size", filterShape.toVector());
    return callOp1(kIm2Col, {x}, picked);
}

} // namespace gradstep
