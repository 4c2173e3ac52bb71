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

void inferMaxPoolReluGrad(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0, "input");
    requireSameDType(call, 0, 1);
    out.push_back({geometry(call).inputShape(), call.input(0).dtype()});
}

// The tiled 2x2 case (Note [Tiled 2x2 pooling]) writes each element of dx once.
template <class T> void tiled(const PoolGeometry& g, const T* y, const T* dy, T* dx)
{
    const std::int64_t planeSize = g.height * g.width;
    for (std::int64_t p = 0; p < g.planes(); ++p) {
        const T* yp = y + p * planeSize;
        T* dp = dx + p * planeSize;
        for (std::int64_t oh = 0; oh < g.outH; ++oh) {
            const std::int64_t r0 = 2 * oh * g.width, r1 = r0 + g.width;
            const T* grad = dy + (p * g.outH + oh) * g.outW;
            for (std::int64_t ow = 0; ow < g.outW; ++ow) {
                const std::int64_t c0 = 2 * ow, c1 = c0 + 1;
                const T a = yp[r0 + c0], b = yp[r0 + c1], c = yp[r1 + c0], d = yp[r1 + c1];
                const auto w = pool_detail::winner(a, b, c, d);
                dp[r0 + c0] = w.a && a > T(0) ? grad[ow] : T(0);
                dp[r0 + c1] = w.b && b > T(0) ? grad[ow] : T(0);
                dp[r1 + c0] = w.c && c > T(0) ? grad[ow] : T(0);
                dp[r1 + c1] = w.d && d > T(0) ? grad[ow] : T(0);
            }
            for (std::int64_t col = 2 * g.outW; col < g.width; ++col)
                dp[r0 + col] = dp[r1 + col] = T(0);
        }
        std::fill(dp + 2 * g.outH * g.width, dp + planeSize, T(0));
    }
}

void forwardMaxPoolReluGrad(const OpCall& call, std::span<Tensor> outputs)
{
    const PoolGeometry g = geometry(call);
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* y = call.input(0).data<T>();
        const T* dy = call.input(1).data<T>();
        T* dx = outputs[0].data<T>();
        if (isTiled2x2(g))
            return tiled(g, y, dy, dx);
        std::memset(dx, 0, outputs[0].nbytes());
        MaxPoolRows<T>(g).run(y, true, [&](std::int64_t out, const T*, const std::int32_t* argmax, std::int64_t plane) {
            for (std::int64_t ow = 0; ow < g.outW; ++ow)
                dx[plane + argmax[ow]] += dy[out + ow];
        });
        for (std::int64_t i = 0, n = outputs[0].numel(); i < n; ++i)
            dx[i] = y[i] > T(0) ? dx[i] : T(0);
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
