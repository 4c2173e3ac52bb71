// max_pool_grad (MaxPoolGrad): dx = routing of dy to the argmax of each pooling window of x
// (the first maximum in row-major order, see max_pool.cpp); dx is 0 elsewhere and sums where
// overlapping windows share a maximum. It is linear in dy and piecewise constant in x:
//   dL/d(dy) = MaxPoolGradGrad(x, G): G read back at each window's argmax
//   dL/dx    = 0 (no gradient; x only chooses the routing)
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn/max_pool_tiled.h"
#include "ops/nn/pool_geometry.h"

#include <cstring>

namespace gradstep {

namespace {
PoolGeometry geometry(const OpCall& call)
{
    const PoolGeometry g = poolGeometry(call, call.input(0).shape());
    if (!(call.input(1).shape() == g.outputShape()))
        throwShapeError(call, "output gradient has shape " + call.input(1).shape().toString() + ", expected "
                                  + g.outputShape().toString());
    return g;
}

void inferMaxPoolGrad(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0, "input");
    requireSameDType(call, 0, 1);
    out.push_back({geometry(call).inputShape(), call.input(0).dtype()});
}

void forwardMaxPoolGrad(const OpCall& call, std::span<Tensor> outputs)
{
    const PoolGeometry g = geometry(call);
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* dy = call.input(1).data<T>();
        T* dx = outputs[0].data<T>();
        if (isTiled2x2(g))
            return maxPoolGradTiled2x2(g, call.input(0).data<T>(), dy, dx);
        std::memset(dx, 0, outputs[0].nbytes());
        MaxPoolRows<T>(g).run(call.input(0).data<T>(), true,
                              [&](std::int64_t out, const T*, const std::int32_t* argmax, std::int64_t plane) {
                                  for (std::int64_t ow = 0; ow < g.outW; ++ow)
                                      dx[plane + argmax[ow]] += dy[out + ow];
                              });
    });
}

TensorList backwardMaxPoolGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor gdy = ctx.needsGrad(1) ? maxPoolGradGradWithAttrs(ctx.input(0), grads[0], ctx.attrs()) : Tensor();
    return {Tensor(), gdy};
}
} // namespace

const OpDef kMaxPoolGrad{"MaxPoolGrad", "max_pool_grad", OpKind::NN, 2, 2, inferMaxPoolGrad, forwardMaxPoolGrad,
                         backwardMaxPoolGrad, false, 0b10};

Tensor maxPoolGradWithAttrs(const Tensor& x, const Tensor& dy, const Attrs& attrs)
{
    return callOp1(kMaxPoolGrad, {x, dy}, pickAttrs(attrs, {"kernel_size", "strides", "pad_mode"}));
}

Tensor maxPoolGrad(const Tensor& x, const Tensor& dy, const Pool2dOptions& options)
{
    return callOp1(kMaxPoolGrad, {x, dy}, poolAttrs(options));
}

} // namespace gradstep
