// gelu_grad (MindSpore's GeLUGrad): dx = dy * gelu'(x), GeLU's backward in one pass, attr
// approximate as GeLU's. It replaces a dozen full-size ops the backward rule ran before (GELU's
// forward + backward on 32x128x256 floats took 1.5x PyTorch's; tests/bench/layers_vs_torch.sh).
// Linear in dy; its own gradient for cotangent G, written with ops so higher orders work:
//   dL/d(dy) = GeLUGrad(G, x)      dL/dx = G * dy * gelu''(x)
//   gelu''(x) = (1 - t^2) (u' + 3 c k x^2 - x t u'^2),  u' = c (1 + 3k x^2)   (tanh form)
//   gelu''(x) = phi(x) (2 - x^2)                                               (erf form)
// gelu'(+inf) = 1 and gelu'(-inf) = 0 (the limits, not inf * 0); NaN propagates.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/gelu_math.h"
#include "ops/elementwise/grad_helpers.h"
#include "ops/elementwise/kernels.h"
#include "ops/gelu_grad_ops.h"

namespace gradstep {

namespace {
using namespace gelu_math;

void inferGeLUGrad(const OpCall& call, SpecList& out) { inferBinary(call, out, true); }

// The tanh form in float32: u into dx, Eigen's vectorised tanh over it (tanhFloat32), then the
// slope from (x, t) in a loop the compiler vectorises.
void tanhFormFloat32(const float* dy, const float* x, float* dx, std::int64_t n)
{
    tanhArgument(x, dx, n);
    tanhFloat32(dx, dx, n);
    for (std::int64_t i = 0; i < n; ++i)
        dx[i] = dy[i] * tanhFormSlope(x[i], dx[i]);
}

void forwardGeLUGrad(const OpCall& call, std::span<Tensor> outputs)
{
    const bool approximate = call.attrs.getBool("approximate", true);
    const Tensor& dy = call.input(0);
    const Tensor& x = call.input(1);
    Tensor& dx = outputs[0];
    if (approximate && dx.dtype() == DType::Float32 && dy.dtype() == DType::Float32 && x.dtype() == DType::Float32
        && dy.shape() == dx.shape() && x.shape() == dx.shape()) {
        tanhFormFloat32(dy.data<float>(), x.data<float>(), dx.data<float>(), dx.numel());
        return;
    }
    floatBinaryForward(call, outputs, [approximate](auto g, auto v) { return g * slope(v, approximate); });
}

TensorList backwardGeLUGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const bool approximate = ctx.attrs().getBool("approximate", true);
    const Tensor& x = ctx.input(1);
    // Summed back to each input's shape and cast to its dtype: dy and x may broadcast and differ
    // in dtype (float16 dy, float32 x).
    const Tensor gdy = ctx.needsGrad(0) ? gradForInput(ctx, 0, geluGrad(grads[0], x, approximate)) : Tensor();
    const Tensor gx =
        ctx.needsGrad(1)
            ? gradForInput(ctx, 1, mul(mul(grads[0], ctx.input(0)), geluSecondDerivative(x, approximate)))
            : Tensor();
    return {gdy, gx};
}
} // namespace

const OpDef kGeLUGrad{"GeLUGrad", "gelu_grad", OpKind::Elementwise, 2, 2,
                      inferGeLUGrad, forwardGeLUGrad, backwardGeLUGrad};

Tensor geluGrad(const Tensor& dy, const Tensor& x, bool approximate)
{
    Attrs attrs;
    attrs.set("approximate", approximate);
    return callOp1(kGeLUGrad, {dy, x}, attrs);
}

Tensor geluSecondDerivative(const Tensor& x, bool approximate)
{
    const Tensor x2 = square(x);
    if (!approximate)
        return exp(x2 * -0.5) * kInvSqrt2Pi * (2.0 - x2);
    const Tensor t = tanh((x + x * x2 * kCubic) * kSqrt2OverPi);
    const Tensor rise = (1.0 + x2 * (3.0 * kCubic)) * kSqrt2OverPi;
    return (1.0 - square(t)) * (rise + x2 * (3.0 * kCubic * kSqrt2OverPi) - x * t * square(rise));
}

} // namespace gradstep
