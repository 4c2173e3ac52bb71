// col2im (Col2Im): the adjoint of Im2Col, dx[n, c, ih, iw] = the sum of the col entries copied
// from x[n, c, ih, iw] (an input_size tensor; positions no window reads get 0). Linear:
//   dL/dcols = Im2Col(G)
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
    requireColsShape(call, 0, g);
    return g;
}

void inferCol2Im(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    out.push_back({geometryOf(call).inputShape(), call.input(0).dtype()});
}

void forwardCol2Im(const OpCall& call, std::span<Tensor> outputs)
{
    const ConvGeometry g = geometryOf(call);
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        col2imBatch<T>(g, call.input(0).data<T>(), outputs[0].data<T>());
    });
}

TensorList backwardCol2Im(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {im2colWithAttrs(grads[0], Shape(ctx.attrs().getInts("filter_size")), ctx.attrs())};
}
} // namespace

const OpDef kCol2Im{"Col2Im", "col2im", OpKind::NN, 1, 1, inferCol2Im, forwardCol2Im, backwardCol2Im};

Tensor col2imWithAttrs(const Tensor& cols, const Shape& inputShape, const Shape& filterShape, const Attrs& attrs)
{
    Attrs picked = convAttrsOf(attrs);
    picked.set("input_size", inputShape.toVector()).set("filter_size", filterShape.toVector());
    return callOp1(kCol2Im, {cols}, picked);
}

} // namespace gradstep
