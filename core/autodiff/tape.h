// The tape: every node recorded while a gradient is being taken, in execution order.
// SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/node.h"

#include <memory>
#include <string>
#include <vector>

namespace gradstep {

class Tape {
public:
    Tape() = default;
    Tape(const Tape&) = delete;
    Tape& operator=(const Tape&) = delete;

    void append(std::shared_ptr<Node> node) { m_nodes.push_back(std::move(node)); }
    const std::vector<std::shared_ptr<Node>>& nodes() const { return m_nodes; }
    std::size_t size() const { return m_nodes.size(); }
    /// One line per node, in recording order.
    std::string dump() const;

private:
    std::vector<std::shared_ptr<Node>> m_nodes;
};

/// Makes `tape` record every op on this thread for the guard's lifetime (nested tapes all record).
class TapeGuard {
public:
    explicit TapeGuard(Tape& tape);
    ~TapeGuard();
    /// Stops recording before the guard ends (the backward pass must not record onto its own tape).
    void release();
    TapeGuard(const TapeGuard&) = delete;
    TapeGuard& operator=(const TapeGuard&) = delete;

private:
    Tape* m_tape;
};

/// Records a node for an executed op when recording is active and an input requires grad.
/// Sets the outputs' autodiff links. Returns the node, or null when nothing was recorded.
std::shared_ptr<Node> recordOp(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs,
                               std::span<Tensor> outputs, std::uint64_t seq);

/// Records a node with a custom backward rule over `inputs` producing `outputs` (linked to it).
std::shared_ptr<Node> recordCustom(const std::string& name, std::span<const Tensor> inputs,
                                   std::span<Tensor> outputs, CustomBackward backward);

} // namespace gradstep
