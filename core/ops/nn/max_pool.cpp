// max_pool2d (MaxPool): y[n, c, i, j] = max of x over window (i, j) (kernel_size, strides,
// pad_mode "same" or "valid"; padding is never read, Note [Pooling windows]).
//   dL/dx = MaxPoolGrad(x, G): each G[n, c, i, j] goes to the position of its window's maximum.
// Ties: the gradient goes to the FIRST maximum in row-major window order (as cuDNN and PyTorch
// do), never split. A NaN in a window is its maximum, so NaN propagates and takes the gradient.
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn/max_pool_tiled.h"
#include "ops/nn/pool_geometry.h"

namespace gradstep {

namespace {
void inferMaxPool(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    out.push_back({poolGeometry(call, call.input(0).shape()).outputShape(), call.input(0).dtype()});
}

void forwardMaxPool(const OpCall& call, std::span<Tensor> outputs)
{
    const PoolGeometry g = poolGeometry(call, call.input(0).shape());
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        maxPoolInto(g, call.input(0).data<T>(), outputs[0].data<T>());
    });
}

TensorList backwardMaxPool(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {maxPoolGradWithAttrs(ctx.input(0), grads[0], ctx.attrs())};
}
} // namespace

const OpDef kMaxPool{"MaxPool", "max_pool2d", OpKind::NN, 1, 1, inferMaxPool, forwardMaxPool, backwardMaxPool};

Tensor maxPoolWithAttrs(const Tensor& x, const Attrs& attrs)
{
    return callOp1(kMaxPool, {x}, pickAttrs(attrs, {"kernel_size", "strides", "pad_mode"}));
}

Tensor maxPool2d(const Tensor& x, const Pool2dOptions& options) { return callOp1(kMaxPool, {x}, poolAttrs(options)); }

} // namespace gradstep
