// neg: y = -x.  dy/dx = -1. SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
void inferNeg(const OpCall& call, SpecList& out) { inferUnary(call, out, false); }

void forwardNeg(const OpCall& call, std::span<Tensor> outputs)
{
    const Tensor& x = call.input(0);
    if (complexUnaryForward<true>(x, outputs[0], [](auto v) { return -v; }))
        return;
    visitDType(x.dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        if constexpr (std::is_same_v<T, bool>)
            throwInputDType(call, 0, kNumberDTypes);
        else {
            const T* px = x.data<T>();
            T* po = outputs[0].data<T>();
            // Floats flip the sign bit (-(+0) is -0, as MindSpore's -x gives); 0 - x would not.
            for (std::int64_t i = 0, n = x.numel(); i < n; ++i)
                if constexpr (kWraps<T>)
                    po[i] = wrapNeg(px[i]);
                else
                    po[i] = -px[i];
        }
    });
}

TensorList backwardNeg(const BackwardContext&, std::span<const Tensor> grads) { return {neg(grads[0])}; }
} // namespace

const OpDef kNeg{"Neg", "neg", OpKind::Elementwise, 1, 1, inferNeg, forwardNeg, backwardNeg};

Tensor neg(const Tensor& x) { return callOp1(kNeg, {x}); }

} // namespace gradstep
