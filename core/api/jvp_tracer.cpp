// ops.jvp's tracer: tangents beside primal tensors and the op dispatch that pushes them forward.
// SPDX-License-Identifier: MIT
#include "api/jvp_tracer.h"

#include "autodiff/observer.h"
#include "autodiff/tape.h"
#include "ops/dispatch.h"
#include "ops/elementwise.h"
#include "ops/jvp/jvp_rules.h"
#include "ops/shape_ops.h"

#include <functional>
#include <utility>

namespace gradstep {

// Note [Tangents by tensor]
// A tangent belongs to one tensor handle (its TensorImpl), not to its storage: Reshape and
// StopGradient alias their input's storage, and StopGradient's output must have no tangent while
// its input keeps one. Every output of an op the tracer saw gets an entry, a zero one included.
// Handles made without an op (the detached copy a gradient call watches its inputs through, a
// backward rule's re-linked output) share a tensor's storage and shape without being it: they
// are looked up by storage and shape among the tensors that have a tangent.

namespace {
/// While alive, ops run in the context enclosing the tracer (its own tangent ops included), emit
/// no node events when `quiet`, and an enclosing tracer (an outer jvp, vmap) sees them.
class Enclosing {
public:
    Enclosing(OpTracer* outer, bool quiet)
        : m_restore(std::exchange(executionContext().tracer, outer)), m_quiet(quiet)
    {
        if (m_quiet)
            ++executionContext().suppressEvents;
    }
    ~Enclosing()
    {
        if (m_quiet)
            --executionContext().suppressEvents;
        executionContext().tracer = m_restore;
    }
    Enclosing(const Enclosing&) = delete;
    Enclosing& operator=(const Enclosing&) = delete;

private:
    OpTracer* m_restore;
    bool m_quiet;
};

/// While alive and `active`, runs `run` once with the seq and outputs of op `op`, between its
/// kernel and its finished event (ExecutionContext::beforeNodeFinished; only observed ops get
/// there). The enclosing hook comes back afterwards.
class BeforeFinished {
public:
    using Run = std::function<void(std::uint64_t seq, std::span<const Tensor> outputs)>;
    BeforeFinished(const OpDef& op, bool active, Run run)
        : m_ctx(executionContext()), m_saved(std::exchange(m_ctx.beforeNodeFinished, nullptr))
    {
        if (!active)
            return;
        m_ctx.beforeNodeFinished = [this, &op, run = std::move(run)](std::uint64_t seq, const OpCall& call,
                                                                    std::span<const Tensor> outputs) {
            if (m_fired || &call.op != &op)
                return;
            m_fired = true;
            run(seq, outputs);
        };
    }
    ~BeforeFinished() { m_ctx.beforeNodeFinished = std::move(m_saved); }
    BeforeFinished(const BeforeFinished&) = delete;
    BeforeFinished& operator=(const BeforeFinished&) = delete;

private:
    ExecutionContext& m_ctx;
    decltype(ExecutionContext::beforeNodeFinished) m_saved;
    bool m_fired = false;
};

bool realOrFloat(DType dtype) { return isFloating(dtype) || isComplex(dtype); }

/// Checks a rule's tangent against the output it belongs to (Principle 6: say what went wrong).
Tensor fitted(const OpDef& op, std::size_t index, const Tensor& tangent, const Tensor& output)
{
    if (!tangent.defined() || !realOrFloat(output.dtype()))
        return Tensor();
    Tensor t = tangent;
    if (!(t.shape() == output.shape())) {
        if (t.numel() > output.numel())
            throw AutodiffError("forward-mode rule of '" + std::string(op.name) + "' gave a tangent of shape "
                                + t.shape().toString() + " for output " + std::to_string(index) + " of shape "
                                + output.shape().toString());
        t = broadcastTo(t, output.shape().toVector()); // a tangent of one broadcast operand (Add's)
    }
    return t.dtype() == output.dtype() ? t : cast(t, output.dtype());
}

bool hasComplex(std::span<const Tensor> tensors)
{
    for (const Tensor& t : tensors)
        if (t.defined() && isComplex(t.dtype()))
            return true;
    return false;
}
} // namespace

JvpStats& jvpStats()
{
    thread_local JvpStats stats;
    return stats;
}

bool insideJvp() { return dynamic_cast<const JvpTracer*>(executionContext().tracer) != nullptr; }

OutputList pushForward(const OpDef& op, std::span<const Tensor> inputs, std::span<const Tensor> tangents,
                       const Attrs& attrs, std::span<const Tensor> outputs, bool useRules, bool& byRule)
{
    // Rules are written for real tensors; complex ops take the fallback, which is exact for them.
    const bool real = !hasComplex(inputs) && !hasComplex(outputs);
    const JvpRule rule = useRules && real ? findJvpRule(op) : nullptr;
    byRule = rule != nullptr;
    OutputList raw = rule ? rule(JvpCall{op, inputs, tangents, attrs, outputs})
                          : fallbackTangents(op, inputs, tangents, attrs, outputs);
    ++(byRule ? jvpStats().ruleOps : jvpStats().fallbackOps);
    if (raw.size() != outputs.size())
        throw AutodiffError("forward-mode rule of '" + std::string(op.name) + "' gave "
                            + std::to_string(raw.size()) + " tangents for " + std::to_string(outputs.size())
                            + " outputs");
    OutputList result;
    for (std::size_t k = 0; k < outputs.size(); ++k)
        result.push_back(fitted(op, k, raw[k], outputs[k]));
    return result;
}

JvpTracer::~JvpTracer()
{
    if (m_installed)
        uninstall();
}

void JvpTracer::install()
{
    m_saved = std::exchange(executionContext().tracer, this);
    m_engine = std::make_unique<TraceDifferentiatorGuard>(
        [this](const Function& fn, const std::vector<Value>& args, const Value& sens, const GradRequest& request) {
            return differentiate(fn, args, sens, request);
        });
    m_installed = true;
}

void JvpTracer::uninstall()
{
    m_engine.reset();
    executionContext().tracer = m_saved;
    m_installed = false;
}

void JvpTracer::remember(const Tensor& primal, const Tensor& tangent)
{
    m_entries[primal.impl()] = Entry{primal, tangent};
    if (tangent.defined())
        m_byStorage[primal.impl()->storage.get()].push_back(Entry{primal, tangent});
}

std::optional<Tensor> JvpTracer::tangent(const Tensor& t) const
{
    if (!t.defined())
        return std::nullopt;
    if (const auto it = m_entries.find(t.impl()); it != m_entries.end())
        return it->second.tangent.defined() ? std::optional<Tensor>(it->second.tangent) : std::nullopt;
    const auto same = m_byStorage.find(t.impl()->storage.get());
    if (same == m_byStorage.end())
        return std::nullopt;
    for (auto it = same->second.rbegin(); it != same->second.rend(); ++it)
        if (it->primal.shape() == t.shape() && it->primal.dtype() == t.dtype())
            return it->tangent;
    return std::nullopt;
}

Tensor JvpTracer::seed(const Tensor& primal, const Tensor& tangent)
{
    if (!(primal.shape() == tangent.shape()))
        throw ValueError("For 'jvp', the shape of each element of 'v' must be the same as the corresponding "
                         "input, but got " + tangent.shape().toString() + " and " + primal.shape().toString());
    Tensor handle = primal.detach();
    if (executionContext().recording()) {
        // An enclosing gradient (grad of jvp) still sees the seeded input as a function of primal.
        Tensor in[] = {primal};
        Tensor outs[] = {handle};
        recordCustom("JvpInput", in, outs, [](const BackwardContext& ctx, std::span<const Tensor> grads) {
            return TensorList{ctx.needsGrad(0) ? grads[0] : Tensor()};
        });
        handle = outs[0];
    }
    if (realOrFloat(primal.dtype()))
        remember(handle, tangent.dtype() == primal.dtype() ? tangent : cast(tangent, primal.dtype()));
    return handle;
}

OutputList JvpTracer::traceOp(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs)
{
    TensorList tangents;
    bool any = false;
    for (const Tensor& in : inputs) {
        const std::optional<Tensor> t = tangent(in);
        tangents.push_back(t ? *t : Tensor());
        any = any || t.has_value();
    }
    // An op that writes into its inputs (an optimizer update) is state, not a function of them.
    const bool push = any && op.differentiable() && !op.writesInputs;
    ExecutionContext& ctx = executionContext();
    OutputList outTangents;
    bool byRule = true;
    const auto pushTangents = [&](std::uint64_t seq, std::span<const Tensor> outputs) {
        {
            Enclosing outer(m_saved, true);
            outTangents = pushForward(op, inputs, tangents, attrs, outputs, m_useRules, byRule);
        }
        if (seq != 0 && ctx.observer) // 0: computed after an op no observer watched
            ctx.observer->nodeTangents(TangentEvent{seq, &op, tangents, outTangents.span(), byRule});
    };
    OutputList outputs;
    {
        Enclosing outer(m_saved, false);
        // Observed, the tangents are computed before the node's finished event, where the
        // debugger may pause, so that it shows them beside the node's values.
        const BeforeFinished hook(op, push && !m_saved, pushTangents);
        outputs = callOp(op, inputs, attrs);
    }
    if (push && outTangents.empty())
        pushTangents(0, outputs.span());
    for (std::size_t k = 0; k < outputs.size(); ++k)
        if (outputs[k].defined())
            remember(outputs[k], push ? outTangents[k] : Tensor());
    return outputs;
}

GradResult JvpTracer::differentiate(const Function& fn, std::vector<Value> args, const Value& sens,
                                    const GradRequest& request)
{
    // The tracer stays installed: the forward pass and every backward rule's ops carry tangents,
    // so the gradients come out with theirs (jacfwd of jacrev, a Hessian-vector product).
    return differentiateOnTape(fn, std::move(args), sens, request);
}

} // namespace gradstep
