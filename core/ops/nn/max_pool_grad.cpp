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

namespace gradstep {

namespace {
void inferMaxPoolGrad(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    requireSameDType(call, 0, 1);
    out.push_back({maxPoolGradGeometry(call).inputShape(), call.input(0).dtype()});
}

void forwardMaxPoolGrad(const OpCall& call, std::span<Tensor> outputs)
{
    const PoolGeometry g = maxPoolGradGeometry(call);
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        maxPoolGradInto(g, call.input(0).data<T>(), call.input(1).data<T>(), outputs[0].data<T>());
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
