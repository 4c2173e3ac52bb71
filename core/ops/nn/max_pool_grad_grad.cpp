// max_pool_grad_grad (MaxPoolGradGrad): y[o] = g[argmax of window o of x], i.e. g (shaped like x)
// read back at the position MaxPool picked for each window (first maximum in row-major order).
// It is the adjoint of MaxPoolGrad's routing: linear in g, piecewise constant in x:
//   dL/dg = MaxPoolGrad(x, G)       dL/dx = 0 (no gradient)
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn/max_pool_tiled.h"
#include "ops/nn/pool_geometry.h"

namespace gradstep {

namespace {
void inferMaxPoolGradGrad(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    requireSameDType(call, 0, 1);
    const PoolGeometry g = poolGeometry(call, call.input(0).shape());
    if (!(call.input(1).shape() == call.input(0).shape()))
        throwShapeError(call, "gradient has shape " + call.input(1).shape().toString() + ", expected the input's "
                                  + call.input(0).shape().toString());
    out.push_back({g.outputShape(), call.input(0).dtype()});
}

void forwardMaxPoolGradGrad(const OpCall& call, std::span<Tensor> outputs)
{
    const PoolGeometry g = poolGeometry(call, call.input(0).shape());
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* grad = call.input(1).data<T>();
        T* y = outputs[0].data<T>();
        if (isTiled2x2(g))
            return maxPoolGradGradTiled2x2(g, call.input(0).data<T>(), grad, y);
        MaxPoolRows<T>(g).run(call.input(0).data<T>(), true,
                              [&](std::int64_t out, const T*, const std::int32_t* argmax, std::int64_t plane) {
                                  for (std::int64_t ow = 0; ow < g.outW; ++ow)
                                      y[out + ow] = grad[plane + argmax[ow]];
                              });
    });
}

TensorList backwardMaxPoolGradGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor gg = ctx.needsGrad(1) ? maxPoolGradWithAttrs(ctx.input(0), grads[0], ctx.attrs()) : Tensor();
    return {Tensor(), gg};
}
} // namespace

const OpDef kMaxPoolGradGrad{"MaxPoolGradGrad", "max_pool_grad_grad", OpKind::NN, 2, 2, inferMaxPoolGradGrad,
                             forwardMaxPoolGradGrad, backwardMaxPoolGradGrad, false, 0b10};

Tensor maxPoolGradGradWithAttrs(const Tensor& x, const Tensor& g, const Attrs& attrs)
{
    return callOp1(kMaxPoolGradGrad, {x, g}, pickAttrs(attrs, {"kernel_size", "strides", "pad_mode"}));
}

Tensor maxPoolGradGrad(const Tensor& x, const Tensor& g, const Pool2dOptions& options)
{
    return callOp1(kMaxPoolGradGrad, {x, g}, poolAttrs(options));
}

} // namespace gradstep
