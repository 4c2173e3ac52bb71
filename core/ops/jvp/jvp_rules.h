// Forward-mode (JVP) rules (Note [Forward-mode rules]): how each primitive op pushes the tangents
// of its inputs forward to tangents of its outputs. SPDX-License-Identifier: MIT
#pragma once

#include "ops/op_def.h"

#include <span>
#include <string_view>

namespace gradstep {

// Note [Forward-mode rules]
// ops.jvp(fn, x, v) runs fn once with a tracer at callOp (core/api/jvp_tracer.h) that carries a
// tangent beside every tensor reached from x. Each op runs as usual (recorded, observed, paused
// at), then its rule computes the tangents of its outputs from its inputs, their tangents and its
// outputs: dy = J_op · dx, without ever forming J_op. Rules call ordinary ops, so the tangent
// computation is itself recorded and differentiable (grad of jvp, jvp of jvp, jacfwd of jacrev).
// An absent tangent means zero: a rule skips the terms it would multiply, and an op none of whose
// inputs carries a tangent runs without its rule. A non-differentiable op (comparisons, argmax,
// ones_like) gives no tangent. A differentiable op without a rule here falls back to the double
// vjp of that op alone (jvp_fallback.cpp): its backward rule u -> J^T u is linear in u, so the
// vjp of that map with cotangent dx is J dx, exact, at the price of running the backward rule
// and its own backward. `gradstep ops` lists which ops have a rule (jvp=rule) and which fall back
// (jvp=vjp). Rules follow the subgradient conventions of the op's backward rule (ReLU's 0 at 0,
// Maximum's half/half at ties, MaxPool's first maximum), so forward and reverse mode agree
// everywhere, also at the kinks, and the tests compare each rule with the fallback.

/// What a rule sees: the op, its inputs, their tangents (undefined: zero), its attributes and the
/// outputs the op computed.
struct JvpCall {
    const OpDef& op;
    std::span<const Tensor> inputs;
    std::span<const Tensor> tangents;
    const Attrs& attrs;
    std::span<const Tensor> outputs;

    const Tensor& input(std::size_t i) const { return inputs[i]; }
    const Tensor& output(std::size_t i) const { return outputs[i]; }
    bool has(std::size_t i) const { return i < tangents.size() && tangents[i].defined(); }
    const Tensor& tangent(std::size_t i) const { return tangents[i]; }
    /// Tangent i, or zeros like input i when it has none (for rules linear in every input).
    Tensor tangentOrZeros(std::size_t i) const;
};

/// One tangent per output; an undefined one is zero.
using JvpRule = OutputList (*)(const JvpCall& call);

/// The rule of an op, or nullptr when it has none (it then falls back to the double vjp).
JvpRule findJvpRule(std::string_view opName);
JvpRule findJvpRule(const OpDef& op);

// The families of rules, one file each: elementwise (jvp_elementwise.cpp), linear and
// reductions (jvp_linear.cpp), matrix products, convolution, pooling, softmax and losses
// (jvp_nn.cpp).
OutputList jvpAdd(const JvpCall& call);
OutputList jvpSub(const JvpCall& call);
OutputList jvpMul(const JvpCall& call);
OutputList jvpRealDiv(const JvpCall& call);
OutputList jvpPow(const JvpCall& call);
OutputList jvpExtremum(const JvpCall& call);
OutputList jvpClipByValue(const JvpCall& call);
OutputList jvpSelect(const JvpCall& call);
OutputList jvpUnaryElementwise(const JvpCall& call);
OutputList jvpGeLUGrad(const JvpCall& call);
OutputList jvpZero(const JvpCall& call);
OutputList jvpLinear(const JvpCall& call);
OutputList jvpBilinear(const JvpCall& call);
OutputList jvpReduceExtremum(const JvpCall& call);
OutputList jvpNorm(const JvpCall& call);
OutputList jvpMaxPool(const JvpCall& call);
OutputList jvpSoftmax(const JvpCall& call);
OutputList jvpLogSoftmax(const JvpCall& call);
OutputList jvpDropout(const JvpCall& call);
OutputList jvpCrossEntropy(const JvpCall& call);
OutputList jvpSparseCrossEntropy(const JvpCall& call);
OutputList jvpSiLU(const JvpCall& call);
OutputList jvpSoftmaxGrad(const JvpCall& call);
OutputList jvpLogSoftmaxGrad(const JvpCall& call);
OutputList jvpSparseCrossEntropyGrad(const JvpCall& call);

} // namespace gradstep
