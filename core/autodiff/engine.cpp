// The backward engine (see engine.h). SPDX-License-Identifier: MIT
#include "autodiff/engine.h"

#include "autodiff/context.h"
#include "autodiff/observer.h"
#include "ops/elementwise.h"

#include <unordered_map>

namespace gradstep {

namespace {

using GradMap = std::unordered_map<const Node*, OutputList>;

void accumulate(GradMap& grads, const Tensor& slotOwner, const Tensor& grad)
{
    OutputList& slots = grads[slotOwner.gradFn().get()];
    const std::uint32_t index = slotOwner.outputIndex();
    while (slots.size() <= index)
        slots.push_back(Tensor());
    slots[index] = slots[index].defined() ? add(slots[index], grad) : grad;
}

// Every output of a node gets a gradient, zeros where none flowed in (e.g. unused split parts).
OutputList materialize(const OutputList& partial, const Node& node)
{
    OutputList full;
    for (std::size_t i = 0; i < node.outputs.size(); ++i) {
        const bool have = i < partial.size() && partial[i].defined();
        full.push_back(have ? partial[i] : Tensor::zeros(node.outputs[i].shape(), node.outputs[i].dtype()));
    }
    return full;
}

void validate(const Node& node, const TensorList& gradInputs)
{
    if (gradInputs.size() != node.inputs.size())
        throw AutodiffError("backward rule of node #" + std::to_string(node.seq) + " '" + node.label()
                            + "' returned " + std::to_string(gradInputs.size()) + " gradients for "
                            + std::to_string(node.inputs.size()) + " inputs");
    for (std::size_t i = 0; i < gradInputs.size(); ++i) {
        const Tensor& g = gradInputs[i];
        const Tensor& in = node.inputs[i];
        if (!g.defined() || !in.defined())
            continue;
        // A Cell's user bprop (Note [Custom bprop]) may give another dtype: MindSpore passes it
        // on as given; set_context(check_bprop=True) is where users ask for a dtype check.
        const bool dtypeMatters = !(node.customBackward && node.name == "CustomBprop");
        if (!(g.shape() == in.shape()) || (dtypeMatters && g.dtype() != in.dtype()))
            throw AutodiffError("gradient for input " + std::to_string(i) + " of node #"
                                + std::to_string(node.seq) + " '" + node.label() + "' has shape "
                                + g.shape().toString() + " " + std::string(dtypeName(g.dtype()))
                                + ", expected " + in.shape().toString() + " "
                                + std::string(dtypeName(in.dtype())));
    }
}

// While a node's rule runs (and its gradients are accumulated), the primitive ops it calls emit
// no events of their own and any node they record points back to it.
class RuleScope {
public:
    explicit RuleScope(Node& node)
        : m_ctx(executionContext()), m_savedOrigin(std::exchange(m_ctx.backwardOrigin, node.shared_from_this()))
    {
        ++m_ctx.suppressEvents;
    }
    ~RuleScope()
    {
        --m_ctx.suppressEvents;
        m_ctx.backwardOrigin = std::move(m_savedOrigin);
    }
    RuleScope(const RuleScope&) = delete;
    RuleScope& operator=(const RuleScope&) = delete;

private:
    ExecutionContext& m_ctx;
    std::shared_ptr<Node> m_savedOrigin;
};

TensorList applyRule(Node& node, const OutputList& gradOutputs)
{
    auto& ctx = executionContext();
    NodeEvent event{node.seq, Phase::Backward, node.op, &node, node.scope.get(), &node.attrs,
                    gradOutputs.span(), {}};
    const bool observe = ctx.observer && ctx.observer->wantsNodeEvents();
    if (observe)
        ctx.observer->nodeStarted(event);
    TensorList gradInputs;
    {
        RuleScope scope(node);
        BackwardContext rule(node);
        if (node.customBackward) {
            gradInputs = node.customBackward(rule, gradOutputs.span());
        } else {
            gradInputs = node.op->backward(rule, gradOutputs.span());
            for (std::size_t i = 0; i < gradInputs.size() && i < node.inputs.size(); ++i)
                if (node.inputs[i].defined())
                    gradInputs[i] = inInputDType(gradInputs[i], node.inputs[i].dtype());
        }
    }
    validate(node, gradInputs);
    if (observe) {
        event.outputs = gradInputs;
        ctx.observer->nodeFinished(event);
    }
    return gradInputs;
}

} // namespace

TensorList backward(const Tape& tape, std::span<const Tensor> roots, std::span<const Tensor> seeds,
                    std::span<const Tensor> targets)
{
    PhaseGuard phase(Phase::Backward);
    GradMap grads;
    {
        // Seeding can add (a root given twice); like rule ops, that emits no events.
        ++executionContext().suppressEvents;
        struct Restore { ~Restore() { --executionContext().suppressEvents; } } restore;
        for (std::size_t i = 0; i < roots.size(); ++i)
            if (roots[i].requiresGrad() && roots[i].gradFn())
                accumulate(grads, roots[i], seeds[i]);
    }
    const auto& nodes = tape.nodes();
    for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
        Node& node = **it;
        auto found = grads.find(&node);
        if (found == grads.end() || node.isLeaf())
            continue;
        TensorList gradInputs = applyRule(node, materialize(found->second, node));
        RuleScope scope(node);
        for (std::size_t i = 0; i < gradInputs.size(); ++i)
            if (gradInputs[i].defined() && node.inputs[i].requiresGrad() && node.inputs[i].gradFn())
                accumulate(grads, node.inputs[i], gradInputs[i]);
    }
    TensorList result;
    for (const Tensor& target : targets) {
        auto found = target.gradFn() ? grads.find(target.gradFn().get()) : grads.end();
        const bool have = found != grads.end() && target.outputIndex() < found->second.size()
                          && found->second[target.outputIndex()].defined();
        result.push_back(have ? found->second[target.outputIndex()] : Tensor::zeros(target.shape(), target.dtype()));
    }
    return result;
}

} // namespace gradstep
