// add: y = a + b (broadcasting).  dy/da = 1, dy/db = 1; each gradient is summed back over the
// axes its input was broadcast along. NaN/Inf propagate as IEEE addition does.
// SPDX-License-Identifier: MIT
#include "ops/elementwise.h"
#include "ops/elementwise/defs.h"
#include "ops/elementwise/grad_helpers.h"
#include "ops/elementwise/kernels.h"

namespace gradstep {

namespace {
void inferAdd(const OpCall& call, SpecList& out) { inferBinary(call, out, false); }

void forwardAdd(const OpCall& call, std::span<Tensor> outputs)
{
    anyOrComplexBinaryForward(call, outputs, [](auto x, auto y) { return wrapAdd(x, y); });
}

TensorList backwardAdd(const BackwardContext& ctx, std::span<const Tensor> grads)
{
    return {gradForInput(ctx, 0, grads[0]), gradForInput(ctx, 1, grads[0])};
}
} // namespace

const OpDef kAdd{"Add", "add", OpKind::Elementwise, 2, 2, inferAdd, forwardAdd, backwardAdd};

Tensor add(const Tensor& a, const Tensor& b) { return callOp1(kAdd, {a, b}); }

} // namespace gradstep
