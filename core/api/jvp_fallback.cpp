// Forward mode for an op without a forward-mode rule: the double vjp of that op alone (Note
// [Forward-mode rules]). Its backward rule g(u) = J^T u is linear in the cotangent u, so the vjp
// of g with cotangent v is (J^T)^T v = J v, exact for any u; u = 0 is used.
// SPDX-License-Identifier: MIT
#include "api/jvp_tracer.h"

#include "autodiff/engine.h"
#include "autodiff/node.h"
#include "autodiff/tape.h"
#include "ops/elementwise.h"

#include <utility>

namespace gradstep {

namespace {
/// A handle of `t` that requires grad, linked to it (as differentiate() watches its inputs).
Tensor watched(const Tensor& t, const char* name)
{
    Tensor in[] = {t};
    Tensor outs[] = {t.detach()};
    recordCustom(name, in, outs, [](const BackwardContext& ctx, std::span<const Tensor> grads) {
        return TensorList{ctx.needsGrad(0) ? grads[0] : Tensor()};
    });
    return outs[0];
}

bool carriesTangent(DType dtype) { return isFloating(dtype) || isComplex(dtype); }

/// The op's backward rule must record onto the local tape even inside a no-grad region (a jvp in
/// ms._no_grad()), and its ops and the engine's must not reach the debugger as a backward pass.
class LocalDifferentiation {
public:
    LocalDifferentiation()
        : m_ctx(executionContext()), m_noGrad(std::exchange(m_ctx.noGradDepth, 0)),
          m_observer(std::exchange(m_ctx.observer, nullptr))
    {
    }
    ~LocalDifferentiation()
    {
        m_ctx.noGradDepth = m_noGrad;
        m_ctx.observer = m_observer;
    }
    LocalDifferentiation(const LocalDifferentiation&) = delete;
    LocalDifferentiation& operator=(const LocalDifferentiation&) = delete;

private:
    ExecutionContext& m_ctx;
    int m_noGrad;
    ExecutionObserver* m_observer;
};
} // namespace

OutputList fallbackTangents(const OpDef& op, std::span<const Tensor> inputs, std::span<const Tensor> tangents,
                            const Attrs& attrs, std::span<const Tensor> outputs)
{
    ExecutionContext& ctx = executionContext();
    const bool enclosingGradient = ctx.recording();
    LocalDifferentiation local;
    auto node = std::make_shared<Node>();
    node->op = &op;
    node->attrs = attrs;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const bool wanted = i < tangents.size() && tangents[i].defined();
        node->inputs.push_back(wanted && !inputs[i].requiresGrad() ? watched(inputs[i], "JvpPrimal") : inputs[i]);
    }
    for (const Tensor& o : outputs)
        node->outputs.push_back(o.detach());
    // The backward rule may read the op's outputs (BackwardContext::output links them to this
    // node): for an enclosing gradient (grad of jvp) this node is then a second copy of the op,
    // on the enclosing tapes, through which that gradient reaches the inputs.
    if (enclosingGradient) {
        node->seq = ctx.nextSeq++;
        node->phase = ctx.phase;
        node->scope = ctx.scope;
        for (Tape* t : ctx.tapes)
            t->append(node);
    }
    Tape tape;
    TapeGuard guard(tape);
    TensorList cotangents;
    for (const Tensor& o : outputs) {
        const Tensor zero = Tensor::zeros(o.shape(), o.dtype());
        cotangents.push_back(carriesTangent(o.dtype()) ? watched(zero, "JvpCotangent") : zero);
    }
    TensorList grads;
    {
        BackwardContext ctx(*node);
        grads = op.backward(ctx, cotangents);
    }
    guard.release();
    TensorList roots, seeds;
    for (std::size_t i = 0; i < inputs.size() && i < grads.size(); ++i) {
        if (i >= tangents.size() || !tangents[i].defined() || !grads[i].defined())
            continue;
        roots.push_back(grads[i]);
        seeds.push_back(tangents[i].dtype() == grads[i].dtype() ? tangents[i] : cast(tangents[i], grads[i].dtype()));
    }
    const TensorList pushed = backward(tape, roots, seeds, cotangents);
    OutputList result;
    for (std::size_t k = 0; k < outputs.size(); ++k)
        result.push_back(carriesTangent(outputs[k].dtype()) ? pushed[k] : Tensor());
    return result;
}

} // namespace gradstep
