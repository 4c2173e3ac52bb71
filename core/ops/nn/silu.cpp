// silu (SiLU) and silu_grad (SiLUGrad): y = x * sigmoid(x) = x / (1 + exp(-x)) and its gradient
//   dx = dy * s * (1 + x * (1 - s)),   s = sigmoid(x)
// each one vectorised kernel (vector_exp.h in float32, Eigen's exp in float64) and one node,
// where x * sigmoid(x) ran a Sigmoid and a Mul forward and four full-size ops backward. SiLUGrad's own gradient (second order), for
// cotangent G, written with ops:
//   d/ddy = SiLUGrad(x, G);   d/dx = G * dy * s * (1 - s) * (2 + x * (1 - 2 s))
// Infinities and NaN give what x * sigmoid(x) gives: silu(+inf) = +inf, silu(-inf) = NaN.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/kernels.h"
#include "ops/nn/common.h"
#include "ops/nn/fused_defs.h"
#include "ops/nn/vector_exp.h"
#include "ops/nn_grad_ops.h"
#include "ops/silu_ops.h"

#include <Eigen/Core>

#include <type_traits>

namespace gradstep {

namespace {
template <class T> using Arr = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T> using ArrOut = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;

void inferSiLU(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0); // no complex kernel
    inferUnary(call, out, true);
}

void forwardSiLU(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    visitFloat(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if constexpr (std::is_same_v<T, float>) {
            vexp::silu(x.data<float>(), outputs[0].data<float>(), x.numel());
        } else {
            const Arr<T> v(x.data<T>(), x.numel());
            ArrOut<T>(outputs[0].data<T>(), x.numel()) = v / (T(1) + (-v).exp());
        }
    });
}

void inferSiLUGrad(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    requireFloat(call, 1);
    requireSameDType(call, 0, 1);
    if (!(call.input(0).shape() == call.input(1).shape()))
        throwShapeError(call, "expected x and dy of the same shape, got " + call.input(0).shape().toString() + " and "
                                  + call.input(1).shape().toString());
    out.push_back({call.input(0).shape(), call.input(0).dtype()});
}

void forwardSiLUGrad(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    visitFloat(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if constexpr (std::is_same_v<T, float>) {
            vexp::siluGrad(x.data<float>(), call.input(1).data<float>(), outputs[0].data<float>(), x.numel());
        } else {
            const Arr<T> v(x.data<T>(), x.numel()), g(call.input(1).data<T>(), x.numel());
            const auto s = (T(1) / (T(1) + (-v).exp())).eval();
            ArrOut<T>(outputs[0].data<T>(), x.numel()) = g * s * (T(1) + v * (T(1) - s));
        }
    });
}

TensorList backwardSiLU(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {siluGrad(ctx.input(0), grads[0])};
}

TensorList backwardSiLUGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& x = ctx.input(0);
    const Tensor s = sigmoid(x);
    const Tensor one = scalarLike(1.0, s);
    const Tensor two = scalarLike(2.0, s);
    const Tensor curvature = mul(mul(s, sub(one, s)), add(two, mul(x, sub(one, mul(two, s)))));
    return {mul(mul(grads[0], ctx.input(1)), curvature), siluGrad(x, grads[0])};
}
} // namespace

const OpDef kSiLU{"SiLU", "silu", OpKind::Elementwise, 1, 1, inferSiLU, forwardSiLU, backwardSiLU};
const OpDef kSiLUGrad{"SiLUGrad", "silu_grad", OpKind::Elementwise, 2, 2, inferSiLUGrad, forwardSiLUGrad,
                      backwardSiLUGrad};

Tensor silu(const Tensor& x) { return callOp1(kSiLU, {x}); }
Tensor siluGrad(const Tensor& x, const Tensor& dy) { return callOp1(kSiLUGrad, {x, dy}); }

} // namespace gradstep
