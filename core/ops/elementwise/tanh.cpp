// tanh: y = tanh x.  dy/dx = 1 - y^2 (uses the output).
// tanh(+-inf) = +-1 with gradient 0; NaN propagates.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

#include <Eigen/Core>

#include <cmath>

namespace gradstep {

namespace {
void inferTanh(const OpCall& call, SpecList& out) { inferUnary(call, out, true); }

void forwardTanh(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    if (x.dtype() == DType::Float32 && outputs[0].dtype() == DType::Float32) {
        tanhFloat32(x.data<float>(), outputs[0].data<float>(), x.numel());
        return;
    }
    floatUnaryForward<true>(call, outputs, [](auto v) { return std::tanh(v); });
}

TensorList backwardTanh(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor y = ctx.output(0);
    return {mul(grads[0], conjOf(sub(scalarLike(1.0, y), square(y))))};
}
} // namespace

void tanhFloat32(const float* x, float* y, std::int64_t n)
{
    Eigen::Map<Eigen::ArrayXf>(y, n) = Eigen::Map<const Eigen::ArrayXf>(x, n).tanh();
}

const OpDef kTanh{"Tanh", "tanh", OpKind::Elementwise, 1, 1, inferTanh, forwardTanh, backwardTanh};

Tensor tanh(const Tensor& x) { return callOp1(kTanh, {x}); }

} // namespace gradstep
