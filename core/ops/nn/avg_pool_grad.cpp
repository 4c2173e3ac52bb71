// avg_pool_grad (AvgPoolGrad): dx[p] = sum over the windows o containing p of dy[o] / count(o),
// with input_shape the pooled input's shape (it is not implied by dy's under "same"). It is the
// adjoint of the linear map AvgPool, so for a cotangent G of dx's shape:
//   dL/d(dy) = AvgPool(G)
// SPDX-License-Identifier: MIT
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn/pool_geometry.h"

#include <cstring>

namespace gradstep {

namespace {
PoolGeometry geometry(const OpCall& call)
{
    const PoolGeometry g = poolGeometry(call, shapeAttr(call, "input_shape", 4));
    if (!(call.input(0).shape() == g.outputShape()))
        throwShapeError(call, "output gradient has shape " + call.input(0).shape().toString() + ", expected "
                                  + g.outputShape().toString() + " for input shape " + g.inputShape().toString());
    return g;
}

void inferAvgPoolGrad(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    out.push_back({geometry(call).inputShape(), call.input(0).dtype()});
}

void forwardAvgPoolGrad(const OpCall& call, std::span<Tensor> outputs)
{
    const PoolGeometry g = geometry(call);
    std::memset(outputs[0].rawData(), 0, outputs[0].nbytes());
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* dy = call.input(0).data<T>();
        T* dx = outputs[0].data<T>();
        forEachWindow(g, [&](std::int64_t o, std::int64_t h0, std::int64_t h1, std::int64_t w0, std::int64_t w1,
                             std::int64_t planeOffset) {
            const T share = dy[o] / static_cast<T>((h1 - h0) * (w1 - w0));
            for (std::int64_t h = h0; h < h1; ++h)
                for (std::int64_t w = w0; w < w1; ++w)
                    dx[planeOffset + h * g.width + w] += share;
        });
    });
}

TensorList backwardAvgPoolGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {avgPoolWithAttrs(grads[0], ctx.attrs())};
}
} // namespace

const OpDef kAvgPoolGrad{"AvgPoolGrad", "avg_pool_grad", OpKind::NN, 1, 1, inferAvgPoolGrad, forwardAvgPoolGrad,
                         backwardAvgPoolGrad};

Tensor avgPoolGradWithAttrs(const Tensor& dy, const Shape& inputShape, const Attrs& attrs)
{
    Attrs picked = pickAttrs(attrs, {"kernel_size", "strides", "pad_mode"});
    picked.set("input_shape", inputShape.toVector());
    return callOp1(kAvgPoolGrad, {dy}, picked);
}

Tensor avgPoolGrad(const Tensor& dy, const std::vector<std::int64_t>& inputShape, const Pool2dOptions& options)
{
    Attrs attrs = poolAttrs(options);
    attrs.set("input_shape", inputShape);
    return callOp1(kAvgPoolGrad, {dy}, attrs);
}

} // namespace gradstep
