// Hooks registered on a Cell (MindSpore's register_forward_pre_hook, register_forward_hook,
// register_backward_hook): run around every call of the Cell, wherever it is called from (Python,
// or a core container such as SequentialCell). SPDX-License-Identifier: MIT
#pragma once

#include "api/value.h"
#include "tensor/tensor.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace gradstep {


/// Gets the Cell's inputs; returns replacements or nothing to keep them.
using ForwardPreHook = std::function<std::optional<std::vector<Value>>(const std::vector<Value>& inputs)>;
/// Gets the inputs and the output; returns a replacement output or nothing.
using ForwardHook = std::function<std::optional<Value>(const std::vector<Value>& inputs, const Value& output)>;
/// Gets the gradients flowing into the Cell's outputs and those it computed for its Tensor
/// inputs; returns replacements for the latter (one per Tensor input) or nothing.
using BackwardHook =
    std::function<std::optional<TensorList>(const TensorList& outputGrads, const TensorList& inputGrads)>;

class CellHooks {
public:
    std::uint64_t addForwardPre(ForwardPreHook hook);
    std::uint64_t addForward(ForwardHook hook);
    std::uint64_t addBackward(BackwardHook hook);
    /// Removes the hook with this id; false when there is none (removing twice is harmless).
    bool remove(std::uint64_t id);
    bool empty() const { return m_pre.empty() && m_forward.empty() && m_backward.empty(); }
    bool hasBackward() const { return !m_backward.empty(); }

    /// The inputs after every forward pre-hook, in registration order.
    std::vector<Value> beforeCall(std::vector<Value> inputs) const;
    /// The output after every forward hook.
    Value afterCall(const std::vector<Value>& inputs, Value output) const;

    /// Backward hooks around one call: wrap() the Tensor inputs before construct runs and
    /// finish() its Tensor outputs after; both return aliases to use in their place, linked to
    /// nodes that hand the gradients to the hooks. Inactive (identity) when not recording.
    class BackwardScope {
    public:
        BackwardScope(const CellHooks& hooks, std::string cellName);
        TensorList wrap(const TensorList& inputs);
        TensorList finish(const TensorList& outputs);

    private:
        struct Shared;
        std::shared_ptr<Shared> m_shared;
        bool m_active = false;
    };

private:
    template <class Hook> using List = std::vector<std::pair<std::uint64_t, Hook>>;
    List<ForwardPreHook> m_pre;
    List<ForwardHook> m_forward;
    List<BackwardHook> m_backward;
    std::uint64_t m_next = 1;
};

} // namespace gradstep
