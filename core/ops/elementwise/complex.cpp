// complex: z = re + i im from two real tensors of one float dtype (Float32 gives Complex64,
// Float64 Complex128), broadcasting.  Backward: d re = Re(dout), d im = Im(dout), the parts of
// the gradient along each real input (MindSpore's Complex bprop).
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/grad_helpers.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
constexpr DTypeSet kPartDTypes = dtypeBit(DType::Float32) | dtypeBit(DType::Float64);

void inferComplex(const OpCall& call, SpecList& out)
{
    requireInputDType(call, 0, kPartDTypes);
    requireInputDType(call, 1, kPartDTypes);
    if (call.input(0).dtype() != call.input(1).dtype())
        throwDTypeError(call, "'real' and 'imag' must have the same dtype, got "
                                  + std::string(dtypeName(call.input(0).dtype())) + " and "
                                  + std::string(dtypeName(call.input(1).dtype())));
    out.push_back({broadcastShapes(call.input(0).shape(), call.input(1).shape(), call.op.name),
                   complexOf(call.input(0).dtype())});
}

void forwardComplex(const OpCall& call, std::span<Tensor> outputs)
{
    visitFloat(call.input(0).dtype(), [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        broadcastBinary<T, std::complex<T>>(call.input(0), call.input(1), outputs[0],
                                            [](T re, T im) { return std::complex<T>(re, im); });
    });
}

TensorList backwardComplex(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    const Tensor& g = grads[0];
    Tensor gre = ctx.needsGrad(0) ? gradForInput(ctx, 0, real(g)) : Tensor();
    Tensor gim = ctx.needsGrad(1) ? gradForInput(ctx, 1, imag(g)) : Tensor();
    return {gre, gim};
}
} // namespace

const OpDef kComplex{"Complex", "complex", OpKind::Elementwise, 2, 2, inferComplex, forwardComplex, backwardComplex};

Tensor complex(const Tensor& re, const Tensor& im) { return callOp1(kComplex, {re, im}); }

} // namespace gradstep
