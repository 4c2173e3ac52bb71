// Observer of op execution: the debugger attaches one to pause between nodes. With none attached
// the dispatcher pays a single null check per op. SPDX-License-Identifier: MIT
#pragma once

#include "autodiff/identity.h"
#include "ops/attrs.h"
#include "tensor/tensor.h"

#include <span>

namespace gradstep {

struct OpDef;
class Node;
struct GraphNode;

struct NodeEvent {
    std::uint64_t seq = 0;
    Phase phase = Phase::Forward;
    const OpDef* op = nullptr;         ///< null for engine-level nodes without an op (leaves, custom bprop)
    const Node* node = nullptr;        ///< the recorded node (always set in the backward phase)
    const std::string* scope = nullptr; ///< Cell scope path, e.g. "LeNet5/conv1"
    const Attrs* attrs = nullptr;
    std::span<const Tensor> inputs;    ///< backward: the gradients flowing in (one per output)
    std::span<const Tensor> outputs;   ///< backward: the input gradients produced; empty on start
    const GraphNode* graphNode = nullptr; ///< graph mode: the executed node (null in PyNative)
};

class ExecutionObserver {
public:
    virtual ~ExecutionObserver() = default;
    virtual void nodeStarted(const NodeEvent& event) = 0;
    virtual void nodeFinished(const NodeEvent& event) = 0;
};

} // namespace gradstep
