// avg_pool2d (AvgPool): y[n, c, i, j] = mean of x over window (i, j) (kernel_size, strides,
// pad_mode "same" or "valid"). Under "same" the mean is over the real elements of the window
// only; padding is not counted (Note [Pooling windows]).
//   dL/dx = AvgPoolGrad(G): each G[n, c, i, j] / count(i, j) spread over its window.
// NaN/Inf propagate through the sums.
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn/pool_geometry.h"

namespace gradstep {

namespace {
void inferAvgPool(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    out.push_back({poolGeometry(call, call.input(0).shape()).outputShape(), call.input(0).dtype()});
}

void forwardAvgPool(const OpCall& call, std::span<Tensor> outputs)
{
    const PoolGeometry g = poolGeometry(call, call.input(0).shape());
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* x = call.input(0).data<T>();
        T* y = outputs[0].data<T>();
        forEachWindow(g, [&](std::int64_t o, std::int64_t h0, std::int64_t h1, std::int64_t w0, std::int64_t w1,
                             std::int64_t planeOffset) {
            T sum = 0;
            for (std::int64_t h = h0; h < h1; ++h)
                for (std::int64_t w = w0; w < w1; ++w)
                    sum += x[planeOffset + h * g.width + w];
            y[o] = sum / static_cast<T>((h1 - h0) * (w1 - w0));
        });
    });
}

TensorList backwardAvgPool(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {avgPoolGradWithAttrs(grads[0], ctx.input(0).shape(), ctx.attrs())};
}
} // namespace

const OpDef kAvgPool{"AvgPool", "avg_pool2d", OpKind::NN, 1, 1, inferAvgPool, forwardAvgPool, backwardAvgPool};

Tensor avgPoolWithAttrs(const Tensor& x, const Attrs& attrs)
{
    return callOp1(kAvgPool, {x}, pickAttrs(attrs, {"kernel_size", "strides", "pad_mode"}));
}

Tensor avgPool2d(const Tensor& x, const Pool2dOptions& options) { return callOp1(kAvgPool, {x}, poolAttrs(options)); }

} // namespace gradstep
