// Recording ops onto the active tapes. SPDX-License-Identifier: MIT
#include "autodiff/tape.h"

#include "autodiff/context.h"

namespace gradstep {

std::string Tape::dump() const
{
    std::string s;
    for (const auto& node : m_nodes)
        s += node->describe() + "\n";
    return s;
}

TapeGuard::TapeGuard(Tape& tape) : m_tape(&tape) { executionContext().tapes.push_back(&tape); }

TapeGuard::~TapeGuard() { release(); }

void TapeGuard::release()
{
    if (!m_tape)
        return;
    auto& tapes = executionContext().tapes;
    for (auto it = tapes.rbegin(); it != tapes.rend(); ++it)
        if (*it == m_tape) {
            tapes.erase(std::next(it).base());
            break;
        }
    m_tape = nullptr;
}

namespace {

void fillIdentity(Node& node, ExecutionContext& ctx)
{
    node.phase = ctx.phase;
    node.scope = ctx.scope;
    node.origin = ctx.backwardOrigin;
    if (ctx.backwardOrigin)
        node.location = ctx.backwardOrigin->location;
    else if (ctx.locationProvider)
        node.location = ctx.locationProvider();
}

void linkOutputs(const std::shared_ptr<Node>& node, std::span<Tensor> outputs)
{
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        TensorImpl* impl = outputs[i].impl();
        node->outputs.push_back(outputs[i].detach());
        impl->gradFn = node;
        impl->outputIndex = static_cast<std::uint32_t>(i);
        // Bool outputs (comparisons) carry no gradient; non-differentiable ops are not recorded.
        impl->requiresGrad = carriesGradient(impl->dtype);
    }
}

void appendToTapes(const std::shared_ptr<Node>& node, ExecutionContext& ctx)
{
    for (Tape* tape : ctx.tapes)
        tape->append(node);
}

/// The setup every recorded node shares once its kind (op or custom rule) is set: save the
/// inputs, stamp the context's identity, become the outputs' gradFn and join the active tapes.
std::shared_ptr<Node> attachNode(std::shared_ptr<Node> node, std::span<const Tensor> inputs,
                                 std::span<Tensor> outputs, ExecutionContext& ctx)
{
    for (const Tensor& in : inputs)
        node->inputs.push_back(in);
    fillIdentity(*node, ctx);
    linkOutputs(node, outputs);
    appendToTapes(node, ctx);
    return node;
}

} // namespace

std::shared_ptr<Node> recordOp(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs,
                               std::span<Tensor> outputs, std::uint64_t seq)
{
    auto& ctx = executionContext();
    if (!ctx.recording() || !op.backward)
        return nullptr;
    bool any = false;
    for (std::size_t i = 0; i < inputs.size() && !any; ++i)
        any = inputs[i].requiresGrad() && (op.differentiableInputs >> (i < 63 ? i : 63) & 1);
    if (!any)
        return nullptr;
    auto node = std::make_shared<Node>();
    node->op = &op;
    node->seq = seq;
    node->attrs = attrs;
    return attachNode(std::move(node), inputs, outputs, ctx);
}

std::shared_ptr<Node> recordCustom(const std::string& name, std::span<const Tensor> inputs,
                                   std::span<Tensor> outputs, CustomBackward backward)
{
    auto& ctx = executionContext();
    auto node = std::make_shared<Node>();
    node->seq = ctx.nextSeq++;
    node->name = name;
    node->customBackward = std::move(backward);
    return attachNode(std::move(node), inputs, outputs, ctx);
}

} // namespace gradstep
