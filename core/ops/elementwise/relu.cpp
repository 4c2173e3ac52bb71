// relu: y = max(x, 0).  dy/dx = 1 for x > 0, else 0: the gradient at the kink x = 0 is 0, as in
// MindSpore's ReluGrad (relu_grad.cpp). The gradient is routed by mask, so an inf or NaN incoming
// gradient where x <= 0 still gives 0. NaN input gives NaN with gradient 0. Integers and floats;
// Bool throws DTypeError.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
// !(v <= 0) keeps NaN (which compares false) and maps -0.0 to 0.
template <class T> T reluValue(T v) { return !(v <= T(0)) ? v : T(0); }

void inferReLU(const OpCall& call, SpecList& out)
{
    inferUnary(call, out, false);
    requireNumber(call, out[0].dtype);
}

void forwardReLU(const OpCall& call, std::span<Tensor> outputs)
{
    numberUnaryForward(call, outputs, [](auto v) { return reluValue(v); });
}

TensorList backwardReLU(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& x = ctx.input(0);
    // One fused op for the float case; integer inputs keep the mask ops.
    if (isFloating(x.dtype()) && grads[0].dtype() == x.dtype() && grads[0].shape() == x.shape())
        return {reluGrad(grads[0], x)};
    const Tensor zero = scalarLike(0.0, x);
    return {select(greater(x, zero), grads[0], zero)};
}
} // namespace

const OpDef kReLU{"ReLU", "relu", OpKind::Elementwise, 1, 1, inferReLU, forwardReLU, backwardReLU};

Tensor relu(const Tensor& x) { return callOp1(kReLU, {x}); }

} // namespace gradstep
