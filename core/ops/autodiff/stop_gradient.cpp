// stop_gradient: y = x.  dy/dx = 0: nothing flows back (the input is treated as a constant).
// It is recorded like any op so the graph shows where the gradient was cut.
// identity: y = x, dy/dx = 1; marks the inputs of a grad call so each has its own slot.
// SPDX-License-Identifier: MIT
#include "ops/autodiff/defs.h"
#include "ops/autodiff_ops.h"
#include "ops/dispatch.h"
#include "ops/registry.h"

namespace gradstep {

namespace {
void inferSame(const OpCall& call, SpecList& out) { out.push_back({call.input(0).shape(), call.input(0).dtype()}); }

void forwardAlias(const OpCall& call, std::span<Tensor> outputs) { outputs[0] = call.input(0).detach(); }

TensorList backwardStop(const BackwardContext&, std::span<const Tensor>) { return {Tensor()}; }

TensorList backwardIdentity(const BackwardContext&, std::span<const Tensor> grads) { return {grads[0]}; }
} // namespace

const OpDef kStopGradient{"StopGradient", "stop_gradient", OpKind::Other, 1, 1, inferSame, forwardAlias,
                          backwardStop, true};
const OpDef kIdentity{"Identity", "identity", OpKind::Other, 1, 1, inferSame, forwardAlias, backwardIdentity, true};

Tensor stopGradient(const Tensor& x) { return callOp1(kStopGradient, {x}); }
Tensor identity(const Tensor& x) { return callOp1(kIdentity, {x}); }

void registerAutodiffOps(OpRegistry& registry)
{
    registry.add(kStopGradient);
    registry.add(kIdentity);
}

} // namespace gradstep
