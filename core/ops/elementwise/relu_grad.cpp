// relu_grad (ReluGrad): dx = dy where x > 0, else 0; dy and x have one shape and float dtype.
// It is ReLU's backward in one pass (MindSpore's ReluGrad), the same values as
// select(greater(x, 0), dy, 0): the gradient at the kink x = 0 is 0, an inf or NaN dy where
// x <= 0 gives 0, and a NaN x gives 0. Linear in dy and piecewise constant in x:
//   dL/d(dy) = ReluGrad(G, x)      dL/dx = 0 (no gradient; x only chooses the mask)
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/nn/common.h"

namespace gradstep {

namespace {
void inferReluGrad(const OpCall& call, SpecList& out)
{
    requireFloat(call, 0);
    requireSameDType(call, 0, 1);
    if (!(call.input(0).shape() == call.input(1).shape()))
        throwShapeError(call, "output gradient has shape " + call.input(0).shape().toString()
                                  + ", expected the input's " + call.input(1).shape().toString());
    out.push_back({call.input(1).shape(), call.input(1).dtype()});
}

void forwardReluGrad(const OpCall& call, std::span<Tensor> outputs)
{
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        const T* dy = call.input(0).data<T>();
        const T* x = call.input(1).data<T>();
        T* dx = outputs[0].data<T>();
        for (std::int64_t i = 0, n = outputs[0].numel(); i < n; ++i)
            dx[i] = x[i] > T(0) ? dy[i] : T(0);
    });
}

TensorList backwardReluGrad(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor gdy = ctx.needsGrad(0) ? reluGrad(grads[0], ctx.input(1)) : Tensor();
    return {gdy, Tensor()};
}
} // namespace

const OpDef kReluGrad{"ReluGrad", "relu_grad", OpKind::Elementwise, 2, 2, inferReluGrad, forwardReluGrad,
                      backwardReluGrad, false, 0b01};

Tensor reluGrad(const Tensor& dy, const Tensor& x) { return callOp1(kReluGrad, {dy, x}); }

} // namespace gradstep
