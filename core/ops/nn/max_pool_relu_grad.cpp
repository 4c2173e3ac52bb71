// max_pool_relu_grad (MaxPoolReluGrad): dx = ReluGrad(MaxPoolGrad(y, dy), y) in one pass, where y
// is the pooled input (a ReLU's output in the pattern the pool_relu_grad_fusion pass rewrites):
// dy is routed to the argmax of each pooling window of y (the first maximum, as MaxPoolGrad) and
// kept only where y > 0. A NaN y takes the window's gradient in MaxPoolGrad and then 0 from the
// mask (NaN > 0 is false), so the result equals the two ops' bit for bit, NaN and Inf included.
// Linear in dy and piecewise constant in y:
//   dL/d(dy) = MaxPoolGradGrad(y, ReluGrad(G, y))      dL/dy = 0 (y only chooses the routing)
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn/max_pool_tiled.h"
#include "ops/nn/pool_geometry.h"

namespace gradstep {

namespace {
void inferMaxPoolReluGrad(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    requireSameDType(call, 0, 1);
    out.push_back({maxPoolGradGeometry(call).inputShape(), call.input(0).dtype()});
}

void forwardMaxPoolReluGrad(const OpCall& call, std::span<Tensor> outputs)
{
    const PoolGeometry g = maxPoolGradGeometry(call);
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        maxPoolGradInto<true>(g, call.input(0).data<T>(), call.input(1).data<T>(), outputs[0].data<T>());
    });
}

TensorList backwardMaxPoolReluGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    if (!ctx.needsGrad(1))
        return {Tensor(), Tensor()};
    const Tensor& y = ctx.input(0);
    return {Tensor(), maxPoolGradGradWithAttrs(y, reluGrad(grads[0], y), ctx.attrs())};
}
} // namespace

const OpDef kMaxPoolReluGrad{"MaxPoolReluGrad", "max_pool_relu_grad", OpKind::NN, 2, 2, inferMaxPoolReluGrad,
                             forwardMaxPoolReluGrad, backwardMaxPoolReluGrad, false, 0b10};

Tensor maxPoolReluGradWithAttrs(const Tensor& y, const Tensor& dy, const Attrs& attrs)
{
    return callOp1(kMaxPoolReluGrad, {y, dy}, pickAttrs(attrs, {"kernel_size", "strides", "pad_mode"}));
}

Tensor maxPoolReluGrad(const Tensor& y, const Tensor& dy, const Pool2dOptions& options)
{
    return callOp1(kMaxPoolReluGrad, {y, dy}, poolAttrs(options));
}

} // namespace gradstep
