// bias_add (BiasAdd): y[n, c, ...] = x[n, c, ...] + bias[c] for x of rank >= 2 (channels on axis 1,
// as NCHW and (N, C) are laid out) and bias of shape (C,).
//   dL/dx = G        dL/dbias = G summed over every axis but 1
// Both inputs must have the same dtype; integer inputs are added (wrapping around on overflow)
// but get no gradient. NaN/Inf propagate as IEEE addition does.
// SPDX-License-Identifier: MIT
#include "ops/elementwise/kernels.h"
#include "ops/nn/common.h"
#include "ops/nn/defs.h"
#include "ops/nn_ops.h"
#include "ops/reduction.h"

namespace gradstep {

namespace {
void inferBiasAdd(const OpCall& call, SpecList& out)
{
    const Shape& x = call.input(0).shape();
    const Shape& bias = call.input(1).shape();
    if (x.rank() < 2)
        throwShapeError(call, "input must have rank >= 2 (N, C, ...), got " + x.toString());
    if (bias.rank() != 1 || bias[0] != x[1])
        throwShapeError(call, "bias must have shape [" + std::to_string(x[1]) + "] to match the channels of input "
                                  + x.toString() + ", got " + bias.toString());
    if (call.input(0).dtype() == DType::Bool)
        throwInputDType(call, 0, kNumberDTypes);
    requireSameDType(call, 0, 1);
    out.push_back({x, call.input(0).dtype()});
}

void forwardBiasAdd(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    const Shape& shape = x.shape();
    const std::int64_t channels = shape[1];
    const std::int64_t outer = shape[0];
    const std::int64_t inner = channels == 0 || outer == 0 ? 0 : x.numel() / (outer * channels);
    visitDataDType(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* px = x.data<T>();
        const T* pb = call.input(1).data<T>();
        T* py = outputs[0].data<T>();
        for (std::int64_t n = 0; n < outer; ++n)
            for (std::int64_t c = 0; c < channels; ++c) {
                const std::int64_t base = (n * channels + c) * inner;
                const T b = pb[c];
                for (std::int64_t i = 0; i < inner; ++i)
                    py[base + i] = wrapAdd(px[base + i], b);
            }
    });
}

TensorList backwardBiasAdd(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& g = grads[0];
    if (!carriesGradient(ctx.input(0).dtype()))
        return {Tensor(), Tensor()};
    std::vector<std::int64_t> axes{0};
    for (std::int64_t axis = 2; axis < g.rank(); ++axis)
        axes.push_back(axis);
    return {ctx.needsGrad(0) ? g : Tensor(), ctx.needsGrad(1) ? reduceSum(g, axes) : Tensor()};
}
} // namespace

const OpDef kBiasAdd{"BiasAdd", "bias_add", OpKind::NN, 2, 2, inferBiasAdd, forwardBiasAdd, backwardBiasAdd};

Tensor biasAdd(const Tensor& x, const Tensor& bias) { return callOp1(kBiasAdd, {x, bias}); }

} // namespace gradstep
