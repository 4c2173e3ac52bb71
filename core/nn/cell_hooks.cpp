// Cell hooks. SPDX-License-Identifier: MIT
#include "nn/cell_hooks.h"

#include "autodiff/context.h"
#include "autodiff/tape.h"
#include "tensor/errors.h"

#include <algorithm>
#include <string>
#include <utility>

namespace gradstep {

namespace {

template <class List> bool eraseId(List& list, std::uint64_t id)
{
    const auto found = std::find_if(list.begin(), list.end(), [id](const auto& e) { return e.first == id; });
    if (found == list.end())
        return false;
    list.erase(found);
    return true;
}

TensorList aliasesOf(const TensorList& tensors)
{
    TensorList aliases;
    aliases.reserve(tensors.size());
    for (const Tensor& t : tensors)
        aliases.push_back(t.detach());
    return aliases;
}

} // namespace

std::uint64_t CellHooks::addForwardPre(ForwardPreHook hook)
{
    m_pre.emplace_back(m_next, std::move(hook));
    return m_next++;
}

std::uint64_t CellHooks::addForward(ForwardHook hook)
{
    m_forward.emplace_back(m_next, std::move(hook));
    return m_next++;
}

std::uint64_t CellHooks::addBackward(BackwardHook hook)
{
    m_backward.emplace_back(m_next, std::move(hook));
    return m_next++;
}

bool CellHooks::remove(std::uint64_t id)
{
    return eraseId(m_pre, id) || eraseId(m_forward, id) || eraseId(m_backward, id);
}

std::vector<Value> CellHooks::beforeCall(std::vector<Value> inputs) const
{
    // A hook may remove hooks while running: iterate over a copy.
    const List<ForwardPreHook> hooks = m_pre;
    for (const auto& [id, hook] : hooks)
        if (std::optional<std::vector<Value>> replaced = hook(inputs))
            inputs = std::move(*replaced);
    return inputs;
}

Value CellHooks::afterCall(const std::vector<Value>& inputs, Value output) const
{
    const List<ForwardHook> hooks = m_forward;
    for (const auto& [id, hook] : hooks)
        if (std::optional<Value> replaced = hook(inputs, output))
            output = std::move(*replaced);
    return output;
}

// Note [Cell backward hooks]
// Two nodes bracket the Cell: one over its Tensor inputs, recorded before construct, and one
// over its Tensor outputs, recorded after. Backward reaches the output node first, which keeps
// the gradients flowing into the outputs; the input node runs once construct's own backward has
// produced the input gradients, and hands both to the hooks, whose result replaces the input
// gradients (MindSpore's grad_input / grad_output). The hooks are the ones registered at call time.
struct CellHooks::BackwardScope::Shared {
    std::vector<BackwardHook> hooks;
    std::string cell;
    TensorList outputGrads;
};

CellHooks::BackwardScope::BackwardScope(const CellHooks& hooks, std::string cellName)
{
    if (hooks.m_backward.empty() || !executionContext().recording())
        return;
    m_shared = std::make_shared<Shared>();
    for (const auto& entry : hooks.m_backward)
        m_shared->hooks.push_back(entry.second);
    m_shared->cell = std::move(cellName);
}

TensorList CellHooks::BackwardScope::wrap(const TensorList& inputs)
{
    if (!m_shared || inputs.empty()
        || std::none_of(inputs.begin(), inputs.end(), [](const Tensor& t) { return t.requiresGrad(); }))
        return inputs;
    m_active = true;
    TensorList aliases = aliasesOf(inputs);
    std::shared_ptr<Shared> shared = m_shared;
    auto backward = [shared](const BackwardContext&, std::span<const Tensor> grads) {
        TensorList inputGrads(grads.begin(), grads.end());
        for (const BackwardHook& hook : shared->hooks) {
            std::optional<TensorList> replaced = hook(shared->outputGrads, inputGrads);
            if (!replaced)
                continue;
            if (replaced->size() != inputGrads.size())
                throw RuntimeError("For '" + shared->cell + "', the backward hook must return "
                                   + std::to_string(inputGrads.size()) + " gradient(s), one per Tensor input, but got "
                                   + std::to_string(replaced->size()) + ".");
            inputGrads = std::move(*replaced);
        }
        return inputGrads;
    };
    recordCustom("CellBackwardHook", inputs, aliases, std::move(backward));
    return aliases;
}

TensorList CellHooks::BackwardScope::finish(const TensorList& outputs)
{
    if (!m_active || outputs.empty())
        return outputs;
    TensorList aliases = aliasesOf(outputs);
    std::shared_ptr<Shared> shared = m_shared;
    auto backward = [shared](const BackwardContext&, std::span<const Tensor> grads) {
        shared->outputGrads.assign(grads.begin(), grads.end());
        return TensorList(grads.begin(), grads.end());
    };
    recordCustom("CellBackwardHook", outputs, aliases, std::move(backward));
    return aliases;
}

} // namespace gradstep
