// leaky_relu: y = x for x > 0, alpha * x otherwise (attr alpha, default 0.2 as in nn.LeakyReLU).
//   dy/dx = 1 for x > 0, alpha otherwise, so the gradient at the kink x = 0 is alpha (MindSpore's
//   LeakyReLUGrad tests x > 0). Routed by mask (select). Float only; NaN propagates.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
void inferLeakyReLU(const OpCall& call, SpecList& out) { inferUnary(call, out, true); }

void forwardLeakyReLU(const OpCall& call, std::span<Tensor> outputs)
{
    const double alpha = call.attrs.getFloat("alpha");
    floatUnaryForward(call, outputs, [alpha](auto v) {
        using T = decltype(v);
        return v > T(0) ? v : v * static_cast<T>(alpha);
    });
}

TensorList backwardLeakyReLU(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& x = ctx.input(0);
    const Tensor& g = grads[0];
    const Tensor alpha = scalarLike(ctx.attrs().getFloat("alpha"), g);
    return {select(greater(x, scalarLike(0.0, x)), g, mul(g, alpha))};
}
} // namespace

const OpDef kLeakyReLU{"LeakyReLU", "leaky_relu", OpKind::Elementwise, 1, 1,
                       inferLeakyReLU, forwardLeakyReLU, backwardLeakyReLU};

Tensor leakyRelu(const Tensor& x, double alpha)
{
    Attrs attrs;
    attrs.set("alpha", alpha);
    return callOp1(kLeakyReLU, {x}, attrs);
}

} // namespace gradstep
